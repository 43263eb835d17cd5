import { isIP } from "node:net";
import { parse as parseCookies } from "cookie";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from "fastify";
import type { AccessTokens, TokenAccess } from "../domain/access/access-tokens.js";
import { actingAs } from "../domain/access/acting-token.js";
import { FailedAttempts } from "./failed-attempts.js";
import { SIGN_IN_CONTENT_SECURITY_POLICY, SIGN_IN_PAGE } from "./sign-in-page.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The token (or session) the request was made with; null when it presented none. */
    access: TokenAccess | null;
  }
}

export const SESSION_COOKIE = "tack_session";
export const SESSION_PATH = "/api/session";
/** The MCP endpoint's POSTs carry the protocol; a read-only token gets read-only tools there. */
export const MCP_PATH = "/mcp";

export interface AccessGuardOptions {
  tokens: AccessTokens;
  /** `--require-token`: loopback requests need a token too. */
  requireToken: boolean;
}

/**
 * Remote access with tokens (docs/api.md, "Access tokens"), one onRequest hook in front of every
 * route: the API, the event streams, the UI's pages and files, `/mcp`, and unknown paths (a 401
 * does not tell whether a path exists). It runs after the local guard (Host, Origin), before any
 * body is read.
 * - A request from a non-loopback peer, or any request under `--require-token`, needs a usable
 *   token: `Authorization: Bearer` or the session cookie. Otherwise 401 with
 *   `WWW-Authenticate: Bearer` (a browser opening a page gets the sign-in page with it).
 * - A loopback request without `--require-token` needs nothing; a usable token it presents still
 *   counts (its scope, its name in the activity), one that is not usable is ignored.
 * - A read-only token may only read: 403 for other methods, except signing out and MCP's POSTs.
 * - Refused tokens count per peer address; after 10 within a minute the address gets 429.
 * `POST` and `DELETE /api/session` (signing in and out) are let through to their route.
 */
export function installAccessGuard(app: FastifyInstance, options: AccessGuardOptions) {
  const { tokens, requireToken } = options;
  const attempts = new FailedAttempts();
  app.decorateRequest("access", null);

  // A callback hook (a refusal answers and does not call `done`): no promise per request.
  app.addHook("onRequest", (request, reply, done) => {
    if (!refused(request, reply)) done();
  });

  /** Answers the request with its refusal and returns true, or returns false to let it pass. */
  function refused(request: FastifyRequest, reply: FastifyReply): boolean {
    const peer = request.socket.remoteAddress ?? "";
    const required = requireToken || !isLoopbackAddress(peer);
    const signingInOrOut = isSessionChange(request);
    const credential = presentedCredential(request);
    if (!required && credential === undefined && !signingInOrOut) return false;

    const waitMs = attempts.retryAfterMs(peer);
    if (waitMs > 0) {
      reply
        .code(429)
        .header("retry-after", String(Math.ceil(waitMs / 1000)))
        .send({ error: "too many refused access tokens from this address; try again in a minute" });
      return true;
    }
    if (credential === undefined) {
      if (signingInOrOut) return false;
      refuse(request, reply, "an access token is required");
      return true;
    }
    const access =
      credential.kind === "bearer"
        ? tokens.authenticate(credential.value)
        : tokens.sessionAccess(credential.value);
    if (access === undefined) {
      if (!required || signingInOrOut) return false;
      attempts.fail(peer);
      refuse(request, reply, "the access token was refused (unknown, revoked or expired)");
      return true;
    }
    request.access = access;
    if (access.readOnly && !READING_METHODS.has(request.method) && !mayWriteReadOnly(request)) {
      reply.code(403).send({ error: "token is read-only" });
      return true;
    }
    return false;
  }

  // The request's writes run inside the token's name (their activity's `details.via`): each
  // route's handler is wrapped as it is added, so a request without a token (nearly all) runs
  // no preHandler hook at all.
  app.addHook("onRoute", (route) => {
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function actingAsToken(request, reply) {
      const access = request.access;
      return access === null
        ? handler.call(this, request, reply)
        : actingAs(access.tokenName, () => handler.call(this, request, reply));
    } as typeof route.handler;
  });

  return { attempts };
}

export type AccessGuard = ReturnType<typeof installAccessGuard>;

const READING_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Answers 401 the same way for every cause, so nothing is learnt about which tokens exist. */
export function refuse(request: FastifyRequest, reply: FastifyReply, error: string) {
  reply.code(401).header("www-authenticate", 'Bearer realm="tack"');
  if (wantsPage(request)) {
    return reply
      .headers({
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        "content-security-policy": SIGN_IN_CONTENT_SECURITY_POLICY,
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
        "x-frame-options": "DENY",
      })
      .send(SIGN_IN_PAGE);
  }
  return reply.send({ error });
}

type Credential = { kind: "bearer" | "session"; value: string };

/** `Authorization: Bearer <token>` first, else the session cookie. */
function presentedCredential(request: FastifyRequest): Credential | undefined {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
    // A malformed Authorization header presents a credential nobody can match.
    return { kind: "bearer", value: match?.[1] ?? "" };
  }
  const session = sessionCookie(request);
  return session === undefined ? undefined : { kind: "session", value: session };
}

export function sessionCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  const value = parseCookies(header)[SESSION_COOKIE];
  return value === undefined || value === "" ? undefined : value;
}

function routePath(request: FastifyRequest): string | undefined {
  // The matched route, not the raw URL, so an encoded path cannot pass for another one.
  return request.routeOptions.url;
}

function isSessionChange(request: FastifyRequest): boolean {
  return (
    (request.method === "POST" || request.method === "DELETE") &&
    routePath(request) === SESSION_PATH
  );
}

function mayWriteReadOnly(request: FastifyRequest): boolean {
  return (
    (request.method === "DELETE" && routePath(request) === SESSION_PATH) ||
    // MCP's POSTs carry reads too (its tools are chosen by the token); DELETE ends a session.
    ((request.method === "POST" || request.method === "DELETE") && routePath(request) === MCP_PATH)
  );
}

/** A browser opening a page (not the API, not a script or stylesheet): it gets the sign-in page. */
function wantsPage(request: FastifyRequest): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  const path = request.url.split("?")[0] ?? "";
  if (path === "/api" || path.startsWith("/api/") || path.startsWith("/assets/")) return false;
  return (request.headers.accept ?? "").includes("text/html");
}

/** The socket's peer is this machine: 127.0.0.0/8, ::1, or IPv4 loopback mapped into IPv6. */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.startsWith("::ffff:") ? address.slice(7) : address;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  return bare === "::1";
}
