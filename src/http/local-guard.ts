import { isIP } from "node:net";
import type { FastifyInstance } from "fastify";

/**
 * tack has no login, so the browser must never let another site drive it.
 * - DNS rebinding: a hostile name resolving to 127.0.0.1 still carries its own name in `Host`.
 *   Only loopback names (and hosts the user allowed explicitly) are served.
 * - Cross-site requests: a state-changing request from a browser carries `Origin`; it must be
 *   tack's own. Clients that send no Origin (curl, scripts, agents) are unaffected.
 * Refusals are 403 with the usual error body.
 */
export function installLocalGuard(app: FastifyInstance, allowedHosts: readonly string[]): void {
  const allowed = new Set(allowedHosts.map((host) => host.toLowerCase()));

  app.addHook("onRequest", async (request, reply) => {
    const host = request.headers.host?.toLowerCase();
    const hostname = host === undefined ? undefined : hostnameOf(host);
    if (hostname === undefined || !(isLoopbackName(hostname) || allowed.has(hostname))) {
      return reply.code(403).send({ error: "host not allowed" });
    }
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    if (origin !== undefined) {
      if (origin.toLowerCase() !== `http://${host}`) {
        return reply.code(403).send({ error: "cross-origin request refused" });
      }
    } else if (request.headers["sec-fetch-site"] === "cross-site") {
      // Browsers that omit Origin still label cross-site requests with Fetch Metadata.
      return reply.code(403).send({ error: "cross-origin request refused" });
    }
  });
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** `example.com:3000` → `example.com`; `[::1]:3000` → `::1`. */
function hostnameOf(host: string): string | undefined {
  if (host.startsWith("[")) {
    const end = host.indexOf("]");
    return end > 0 ? host.slice(1, end) : undefined;
  }
  const colon = host.indexOf(":");
  const name = colon === -1 ? host : host.slice(0, colon);
  return name === "" ? undefined : name;
}

export function isLoopbackName(hostname: string): boolean {
  if (hostname === "localhost" || hostname.endsWith(".localhost")) return true;
  if (isIP(hostname) === 4) return hostname.startsWith("127.");
  if (isIP(hostname) === 6) return hostname === "::1" || hostname === "0:0:0:0:0:0:0:1";
  return false;
}
