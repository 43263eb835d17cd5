import type { FastifyInstance } from "fastify";
import secureJson from "secure-json-parse";
import { InvalidInput } from "../domain/errors.js";
import { textNestingDepthAtMost } from "./json-depth.js";
import { BODY_MAX_DEPTH } from "./request-limits.js";

/**
 * tack accepts request bodies only as application/json (a charset parameter is fine). Fastify's
 * default text/plain parser is removed: a cross-site HTML form can send text/plain without a
 * CORS preflight, so accepting it would let any web page write to the board.
 * An empty body parses as "no body", so body-less endpoints work whatever the client sends.
 * A body nested deeper than BODY_MAX_DEPTH is refused before parsing (request-limits.ts).
 */
export function installJsonBodyParsing(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  // Any other type is accepted only with an empty body (a DELETE sent with a stray header).
  app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => {
    if ((body as string) === "") done(null, undefined);
    else done(new InvalidInput("content-type must be application/json"), undefined);
  });
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    const text = body as string;
    if (text.trim() === "") {
      done(null, undefined);
      return;
    }
    if (!textNestingDepthAtMost(text, BODY_MAX_DEPTH)) {
      done(
        new InvalidInput(`request body is nested more than ${BODY_MAX_DEPTH} levels deep`),
        undefined,
      );
      return;
    }
    try {
      // Drops __proto__/constructor.prototype keys instead of letting them reach our objects.
      done(
        null,
        secureJson.parse(text, undefined, { protoAction: "remove", constructorAction: "remove" }),
      );
    } catch {
      done(new InvalidInput("request body is not valid JSON"), undefined);
    }
  });
}
