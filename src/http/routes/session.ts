import { Type } from "@sinclair/typebox";
import { serialize } from "cookie";
import type { FastifyRequest } from "fastify";
import type { AccessTokens } from "../../domain/access/access-tokens.js";
import {
  type AccessGuard,
  refuse,
  SESSION_COOKIE,
  SESSION_PATH,
  sessionCookie,
} from "../access-guard.js";
import { answer, errors } from "../schemas/common.js";
import { SessionState } from "../schemas/service.js";
import type { TackApp } from "../types.js";

/** Browsers drop cookies after 400 days anyway; the session itself lasts as long as its token. */
const COOKIE_MAX_AGE_SECONDS = 30 * 24 * 3600;

/**
 * Browser sessions (docs/api.md, "Access tokens"): the web UI trades a token for an HttpOnly
 * cookie, so the token is typed once and never kept where page script could read it. The access
 * guard lets POST and DELETE through without a credential; everything else about them is here.
 */
export function sessionRoutes(
  app: TackApp,
  tokens: AccessTokens,
  guard: AccessGuard,
  options: { https: boolean },
): void {
  const cookie = (request: FastifyRequest, value: string, maxAge: number) =>
    serialize(SESSION_COOKIE, value, {
      httpOnly: true,
      sameSite: "strict",
      path: "/",
      maxAge,
      // Over https, and behind an https proxy (the page's origin says so), the cookie is never
      // sent in clear.
      secure: options.https || (request.headers.origin ?? "").startsWith("https://"),
    });

  app.post(
    SESSION_PATH,
    {
      schema: {
        operationId: "startSession",
        tags: ["access"],
        summary: "Sign in: trade an access token for a session cookie",
        description:
          "The web UI's sign-in. A usable token gives an HttpOnly, SameSite=Strict cookie valid " +
          "while the token is, with its scope. A refused token is a failed attempt (429 after 10 a " +
          "minute from one address). Needs no credential of its own.",
        body: Type.Object(
          { token: Type.String({ minLength: 1, maxLength: 200 }) },
          { additionalProperties: false },
        ),
        response: {
          204: answer(Type.Null(), "Signed in: the session cookie is in Set-Cookie."),
          ...errors(400, 401, 429),
        },
      },
    },
    async (request, reply) => {
      const started = tokens.startSession(request.body.token);
      if (!started) {
        guard.attempts.fail(request.socket.remoteAddress ?? "");
        return refuse(request, reply, "the access token was refused (unknown, revoked or expired)");
      }
      return reply
        .code(204)
        .header("set-cookie", cookie(request, started.session, COOKIE_MAX_AGE_SECONDS))
        .header("cache-control", "no-store")
        .send(null);
    },
  );

  app.delete(
    SESSION_PATH,
    {
      schema: {
        operationId: "endSession",
        tags: ["access"],
        summary: "Sign out: end the browser session and clear its cookie",
        description:
          "Ends the session of the cookie sent, if any, on the server, and clears the cookie. " +
          "Needs no credential of its own, so a read-only or stale session can always sign out.",
        response: {
          204: answer(Type.Null(), "Signed out: the session ended and the cookie is cleared."),
          ...errors(400, 429),
        },
      },
    },
    async (request, reply) => {
      const session = sessionCookie(request);
      if (session !== undefined) tokens.endSession(session);
      return reply
        .code(204)
        .header("set-cookie", cookie(request, "", 0))
        .send(null);
    },
  );

  app.get(
    SESSION_PATH,
    {
      schema: {
        operationId: "getSession",
        tags: ["access"],
        summary: "Whether the request came with a session, and its scope",
        description:
          "For the web UI: whether a usable session cookie came with the request (then it offers " +
          "sign-out), and whether the request may only read.",
        response: {
          200: answer(SessionState, "The session state of this request."),
          ...errors(400, 401, 429),
        },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const session = sessionCookie(request);
      return {
        signedIn:
          request.access !== null &&
          request.headers.authorization === undefined &&
          session !== undefined,
        readOnly: request.access?.readOnly ?? false,
      };
    },
  );
}
