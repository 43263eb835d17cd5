import assert from "node:assert/strict";
import { request } from "node:http";
import { test } from "node:test";
import { MAX_DISCARDED_BYTES } from "../../src/http/unread-bodies.js";
import { startTestServer } from "../helpers/server.js";

/**
 * A request body the server never reads (a GET's; an upload refused with 413) must not cost the
 * client its answer: closing a connection while request bytes still arrive makes the operating
 * system reset it and drop the answer's undelivered tail (src/http/unread-bodies.ts).
 */

const api = await startTestServer();
const { hostname, port } = new URL(api.url);

interface Answer {
  status: number;
  declaredLength: number;
  text: string;
}

/** One request on its own connection (`Connection: close`), the body framed by Content-Length. */
function send(method: string, path: string, body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = {
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(body)),
    };
    const req = request({ hostname, port, method, path, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          declaredLength: Number(response.headers["content-length"]),
          text: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

const threeMegabytes = JSON.stringify({ title: "x".repeat(3_000_000) });

test("a GET carrying a 3 MB body gets its whole answer (the OpenAPI YAML, over 100 KB)", async () => {
  const answer = await send("GET", "/api/docs/yaml", threeMegabytes);
  assert.equal(answer.status, 200);
  assert.ok(answer.declaredLength > 100_000, "an answer larger than the socket buffers");
  assert.equal(Buffer.byteLength(answer.text), answer.declaredLength);
  assert.match(answer.text, /^openapi: 3\.1\.0/);
});

test("an upload refused with 413 before its end gets the whole {error}, and the server goes on", async () => {
  const answer = await send("POST", "/api/boards", threeMegabytes);
  assert.equal(answer.status, 413);
  assert.deepEqual(Object.keys(JSON.parse(answer.text)), ["error"]);
  assert.equal((await api.get("/api/health")).status, 200);
});

test(`a body announced above ${MAX_DISCARDED_BYTES} bytes is not waited for: the 413 comes at once`, async () => {
  const answer = await new Promise<Answer>((resolve, reject) => {
    const headers = {
      "content-type": "application/json",
      "content-length": String(MAX_DISCARDED_BYTES + 1),
    };
    const req = request(
      { hostname, port, method: "POST", path: "/api/boards", headers, agent: false },
      (response) => {
        let text = "";
        response.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () => {
          req.destroy();
          resolve({ status: response.statusCode ?? 0, declaredLength: 0, text });
        });
      },
    );
    req.on("error", reject);
    // Only the start of the announced body is ever sent: an answer must not wait for the rest.
    req.write('{"name":"');
  });
  assert.equal(answer.status, 413);
  assert.deepEqual(Object.keys(JSON.parse(answer.text)), ["error"]);
});
