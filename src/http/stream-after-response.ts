import type { FastifyRequest, RouteHandlerMethod } from "fastify";
import { flushStreamsDue } from "../events/board-stream.js";
import { HeldDeliveries, whileHandling } from "../events/held-deliveries.js";
import type { TackApp } from "./types.js";

const SCOPE = Symbol("heldDeliveries");
type ScopedRequest = FastifyRequest & { [SCOPE]?: HeldDeliveries };

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Every request holds back the board stream messages its changes cause until its response has
 * been written out (or the connection closed), so a client always has the answer to its own
 * request before the stream tells anybody about the change (events/held-deliveries.ts). Route
 * handlers are wrapped as they are added, so call this before adding routes.
 */
export function installStreamAfterResponse(app: TackApp): void {
  app.addHook("onRequest", (request: ScopedRequest, reply, done) => {
    // Stream messages whose batch has passed go out before this request's work, not after the
    // whole turn of the event loop (events/board-stream.ts).
    flushStreamsDue();
    const scope = new HeldDeliveries(!READS.has(request.method));
    request[SCOPE] = scope;
    // A response emits `close` once, after it has finished (on the next tick) or when its
    // connection closed before: one listener covers both.
    reply.raw.on("close", () => scope.release());
    done();
  });
  app.addHook("onRoute", (route) => {
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function heldUntilAnswered(request: ScopedRequest, reply) {
      const scope = request[SCOPE];
      return scope === undefined
        ? handler.call(this, request, reply)
        : whileHandling(scope, () => handler.call(this, request, reply));
    } as typeof route.handler;
  });
}
