import type { Server } from "node:http";
import type { Socket } from "node:net";

/**
 * An idle keep-alive connection is closed after KEEP_ALIVE_TIMEOUT_MS (request-limits.ts), but
 * never under a request that has already come on it. Node closes it from a timer, and a busy
 * event loop runs that timer late: by then the client may have sent its next request on the
 * connection, still open, and the request's bytes wait unread on the socket. Closing a socket
 * with unread bytes resets the connection, so the client gets ECONNRESET for a request the
 * server never answered (a POST, which a client may not send again by itself). So the timer's
 * close waits until the socket has been polled once after the current turn of the event loop
 * (two turns: bytes written during this turn's poll are read in the next one): a request that
 * came by then is being answered, and the connection stays open. One sent later still races the
 * close, as with any server; clients stop reusing a connection before its advertised timeout.
 */
export function closeIdleConnectionsOnlyWhenIdle(server: Server): void {
  // With a listener here, Node no longer closes a socket whose timeout fired: this does. The
  // only socket timeout the server sets is the keep-alive one (no route sets its own).
  server.on("timeout", (socket: Socket) => {
    const read = socket.bytesRead;
    setImmediate(() =>
      setImmediate(() => {
        if (socket.bytesRead === read) socket.destroy();
      }),
    );
  });
}
