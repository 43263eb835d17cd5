import { isIP } from "node:net";
import type { FastifyInstance, FastifyRequest } from "fastify";

/**
 * Requests from this machine need no login (unless --require-token; tokens: access-guard.ts), so
 * the browser must never let another site drive or read tack.
 * - DNS rebinding: a hostile name resolving to 127.0.0.1 still carries its own name in `Host`.
 *   Only loopback names (and hosts the user allowed explicitly) are served.
 * - Other web pages: a request a browser sends on behalf of another origin carries a foreign
 *   `Origin`, or `Sec-Fetch-Site: cross-site` / `same-site` (a page on another local port is
 *   same-site). tack's own origin is `http://` (`https://` with --tls-cert) and the Host; for a
 *   host allowed by name, `https://` too (an https proxy in front). Such requests are refused
 *   whatever their method: writes, reads and the event stream alike. The one exception is a top-level navigation to a UI page (a link from a remote
 *   issue to `/tickets/42` must open); the page's own requests are then same-origin.
 * - Clients that send neither header (curl, scripts, agents) are unaffected, and so is tack's own
 *   UI (`Sec-Fetch-Site: same-origin`, `Origin` equal to tack's own).
 * Refusals are 403 with the usual error body.
 */
export function installLocalGuard(
  app: FastifyInstance,
  allowedHosts: readonly string[],
  options: { https?: boolean } = {},
): void {
  const allowed = new Set(allowedHosts.map((host) => host.toLowerCase()));
  const scheme = options.https ? "https" : "http";

  // A callback hook (a refusal answers and does not call `done`): no promise per request.
  app.addHook("onRequest", (request, reply, done) => {
    const host = request.headers.host?.toLowerCase();
    const hostname = host === undefined ? undefined : hostnameOf(host);
    if (hostname === undefined || !(isLoopbackName(hostname) || allowed.has(hostname))) {
      reply.code(403).send({ error: "host not allowed" });
      return;
    }
    // A host the user allowed by name may sit behind an https reverse proxy (docs/operations.md)
    // that passes the Host on: its pages then have an https origin.
    const httpsToo = allowed.has(hostname);
    if (
      isFromAnotherSite(request, host as string, scheme, httpsToo) &&
      !isPageNavigation(request)
    ) {
      reply.code(403).send({ error: "cross-origin request refused" });
      return;
    }
    done();
  });
}

/** Sent by a browser on behalf of a page that is not tack's own origin. */
function isFromAnotherSite(
  request: FastifyRequest,
  host: string,
  scheme: "http" | "https",
  httpsToo: boolean,
): boolean {
  const origin = request.headers.origin;
  // `Origin: null` (sandboxed frames, file: pages, some redirects) is foreign too.
  if (origin !== undefined) {
    const own = origin.toLowerCase();
    if (own !== `${scheme}://${host}` && !(httpsToo && own === `https://${host}`)) return true;
  }
  const site = request.headers["sec-fetch-site"];
  return site === "cross-site" || site === "same-site";
}

/**
 * A top-level navigation (a followed link, a typed address) to a page of the UI: GET or HEAD of
 * a path outside `/api` and `/mcp`, in the tab itself, not in a frame, image or script of the other page.
 */
function isPageNavigation(request: FastifyRequest): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  if (request.headers["sec-fetch-mode"] !== "navigate") return false;
  const destination = request.headers["sec-fetch-dest"];
  if (destination !== undefined && destination !== "document") return false;
  // The matched route, not the raw URL, so `/%61pi/boards` cannot pass for a page.
  const path = request.routeOptions.url ?? request.url.split("?")[0] ?? "";
  return path !== "/api" && !path.startsWith("/api/") && path !== "/mcp";
}

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
