import { HeldDeliveries, holdingDeliveries } from "../events/held-deliveries.js";
import type { TackApp } from "./types.js";

/**
 * Every request runs in a scope that holds back the board stream messages its changes cause
 * until its response has been written out (or the connection closed), so a client always has
 * the answer to its own request before the stream tells anybody about the change.
 */
export function installStreamAfterResponse(app: TackApp): void {
  app.addHook("onRequest", (_request, reply, done) => {
    const scope = new HeldDeliveries();
    const release = () => scope.release();
    reply.raw.once("finish", release);
    reply.raw.once("close", release);
    holdingDeliveries(scope, done);
  });
}
