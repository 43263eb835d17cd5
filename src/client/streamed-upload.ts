import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";

/**
 * A request whose body is sent as it is read (a board document from a file or stdin), through
 * node:http rather than fetch: Node 20's fetch reads a streamed body ahead of the socket, and a
 * 160 MiB upload grew the client to ~260 MiB; piped, the socket's backpressure holds it at the
 * size of a few chunks (test/cli/board-import.test.ts). Answers a fetch Response, so callers
 * read it as any other.
 */
export async function streamedRequest(
  url: string,
  init: {
    method: string;
    headers: Record<string, string>;
    body: AsyncIterable<Uint8Array>;
    onUpload: (sent: number) => void;
    signal?: AbortSignal | undefined;
  },
): Promise<Response> {
  const send = url.startsWith("https:") ? httpsRequest : httpRequest;
  const outgoing = send(url, {
    method: init.method,
    headers: init.headers,
    ...(init.signal ? { signal: init.signal } : {}),
  });
  const answered = new Promise<Response>((resolve, reject) => {
    outgoing.once("response", (incoming) => {
      resolve(
        new Response(Readable.toWeb(incoming) as ReadableStream<Uint8Array>, {
          status: incoming.statusCode ?? 0,
          headers: responseHeaders(incoming.headers),
        }),
      );
    });
    outgoing.once("error", reject);
  });
  let sent = 0;
  const counting = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      sent += chunk.length;
      init.onUpload(sent);
      done(null, chunk);
    },
  });
  // An answer may come before the whole body is sent (a 400 at the first bad ticket): the
  // upload's own failure then does not matter.
  const uploaded = pipeline(Readable.from(init.body), counting, outgoing).catch(() => {});
  const response = await answered;
  void uploaded;
  return response;
}

function responseHeaders(headers: IncomingHttpHeaders): Headers {
  const result = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) result.append(name, one);
  }
  return result;
}
