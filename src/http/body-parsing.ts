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
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

/**
 * A JSON body's text parsed: undefined when blank, refused with InvalidInput when nested more
 * than BODY_MAX_DEPTH levels or not JSON. Also the board import's, for a body read whole
 * (streamed-import.ts).
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") return undefined;
  if (!textNestingDepthAtMost(text, BODY_MAX_DEPTH)) {
    throw new InvalidInput(`request body is nested more than ${BODY_MAX_DEPTH} levels deep`);
  }
  try {
    // Drops __proto__/constructor.prototype keys instead of letting them reach our objects.
    return secureJson.parse(text, undefined, {
      protoAction: "remove",
      constructorAction: "remove",
    });
  } catch {
    throw new InvalidInput("request body is not valid JSON");
  }
}
