import { request } from "node:http";
import type { Socket } from "node:net";

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: any;
}

export interface RawRequest {
  method?: string;
  path: string;
  /** Sent exactly as given; `host` replaces the automatic Host header. */
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** When false, no Host header is sent at all. */
  setHost?: boolean;
}

/**
 * A request with full control over the headers (fetch forbids or rewrites Host, and always adds a
 * content type to string bodies), for tests of the transport rules: Host, Origin, content types.
 */
export function rawRequest(baseUrl: string, options: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname: url.hostname.replace(/^\[|\]$/g, ""),
        port: url.port,
        method: options.method ?? "GET",
        path: options.path,
        headers: options.headers ?? {},
        setHost: options.setHost ?? true,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: unknown;
          if (String(res.headers["content-type"] ?? "").includes("application/json") && text) {
            body = JSON.parse(text);
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** Everything `socket` receives, as text, once it closes (raw-socket tests of the transport). */
export function everythingReceived(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
    });
    socket.on("close", () => resolve(text));
  });
}
