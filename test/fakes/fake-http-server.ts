// The machinery shared by the fake provider servers: a node:http server on 127.0.0.1 (port 0),
// a log of every request, one-shot response overrides and an artificial delay.
// Each fake (github.ts, gitlab.ts, redmine.ts) supplies only its routes and data.

import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** Path and query exactly as sent (percent-encoding kept, e.g. group%2Fproject). */
  path: string;
  /** Header names are lowercase. */
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeResponse {
  status: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. Omit for an empty body. */
  body?: unknown;
}

export interface InterceptOptions {
  /** Only a request for which this returns true is intercepted; default: the next request. */
  when?: (request: RecordedRequest) => boolean;
}

/** Options of each fake's failNext(status, options). */
export interface FailNextOptions extends InterceptOptions {
  /** Extra or replacement response headers, e.g. {"x-ratelimit-remaining": "0"}. */
  headers?: Record<string, string>;
}

/** A held answer (`holdNext`): the request has come once `arrived` resolves. */
export interface HeldAnswer {
  arrived: Promise<RecordedRequest>;
  /** Sends the answer the request would have had. */
  release(): void;
}

/** Controls every fake offers; tests flip these switches, then assert on `requests`. */
export interface FakeServerControls {
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  /** Every request received, oldest first (overridden and delayed ones included). */
  readonly requests: RecordedRequest[];
  /** Answer the next (matching) request with this response instead of the normal one. */
  interceptNext(response: FakeResponse, options?: InterceptOptions): void;
  /**
   * Holds the answer to the next (matching) request until `release()`: a test can act while tack
   * waits for the remote (e.g. its own client leaving).
   */
  holdNext(options?: InterceptOptions): HeldAnswer;
  /** Hold every response for this long (0 = answer at once); for client timeout tests. */
  setDelay(ms: number): void;
  close(): Promise<void>;
}

export type FakeHandler = (request: RecordedRequest) => FakeResponse;

export async function startFakeHttpServer(handler: FakeHandler): Promise<FakeServerControls> {
  const requests: RecordedRequest[] = [];
  const intercepts: Array<{ response: FakeResponse; when: (request: RecordedRequest) => boolean }> =
    [];
  const timers = new Set<NodeJS.Timeout>();
  const holds: Array<{
    when: (request: RecordedRequest) => boolean;
    arrived: (request: RecordedRequest) => void;
    released: Promise<void>;
  }> = [];
  let delayMs = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request: RecordedRequest = {
        method: req.method ?? "GET",
        path: req.url ?? "/",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(request);
      const index = intercepts.findIndex((intercept) => intercept.when(request));
      const intercepted = index >= 0 ? intercepts.splice(index, 1)[0] : undefined;
      const response = intercepted?.response ?? safely(handler, request);

      const send = () => {
        if (res.destroyed) return; // the client gave up (timeout test)
        const isText = typeof response.body === "string";
        const payload =
          response.body === undefined
            ? ""
            : isText
              ? String(response.body)
              : JSON.stringify(response.body);
        const type = isText ? "text/plain; charset=utf-8" : "application/json; charset=utf-8";
        res.writeHead(response.status, {
          ...(payload === "" ? {} : { "Content-Type": type }),
          ...response.headers,
        });
        res.end(payload);
      };
      const held = holds.findIndex((hold) => hold.when(request));
      if (held >= 0) {
        const [hold] = holds.splice(held, 1);
        hold?.arrived(request);
        void hold?.released.then(send);
        return;
      }
      if (delayMs === 0) return send();
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, delayMs);
      timers.add(timer);
    });
  });

  // Providers keep an idle connection open for a minute or more. Node's 5 s default closed it as
  // tack sent its next request when a loaded machine slowed a test down: a reset GET is sent
  // again (src/providers/http.ts), but a reset POST fails, as it must. close() ends them all.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    interceptNext(response, options = {}) {
      intercepts.push({ response, when: options.when ?? (() => true) });
    },
    holdNext(options = {}) {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let arrived: (request: RecordedRequest) => void = () => {};
      const arrival = new Promise<RecordedRequest>((resolve) => {
        arrived = resolve;
      });
      holds.push({ when: options.when ?? (() => true), arrived, released });
      return { arrived: arrival, release };
    },
    setDelay(ms) {
      delayMs = ms;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

/** A bug in a fake answers 500 instead of crashing the test process. */
function safely(handler: FakeHandler, request: RecordedRequest): FakeResponse {
  try {
    return handler(request);
  } catch (error) {
    return { status: 500, body: `fake server error: ${String(error)}` };
  }
}

/** Parses a JSON request body; undefined when it is not JSON. */
export function parseJsonBody(request: RecordedRequest): unknown {
  try {
    return JSON.parse(request.body);
  } catch {
    return undefined;
  }
}

/** Splits a request path into pathname segments (still percent-encoded) and query parameters. */
export function splitPath(path: string): { segments: string[]; query: URLSearchParams } {
  const url = new URL(path, "http://fake.invalid");
  return { segments: url.pathname.split("/").filter((s) => s !== ""), query: url.searchParams };
}
