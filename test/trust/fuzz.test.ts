import assert from "node:assert/strict";
import { request } from "node:http";
import { after, test } from "node:test";
import Database from "better-sqlite3";
import fc from "fast-check";
import { createBoard, createTag, createTicket } from "../helpers/factories.js";
import { registeredRoutes } from "../helpers/routes.js";
import { startTestServer } from "../helpers/server.js";

/**
 * Generated malformed and hostile requests to every route: wrong types, huge numbers, deep JSON,
 * long and odd Unicode strings, ids of other boards, `__proto__`/`constructor` keys, invalid JSON,
 * other content types and methods. For each: no 5xx; every error is exactly `{error}`; a refused
 * request (4xx) commits nothing (SQLite's data_version, read on a second connection, changes
 * with every commit of the server's connection); and the server keeps answering.
 * FUZZ_REQUESTS (default 800 here; `npm run test:fuzz` sends 10,000) and FUZZ_SEED.
 */
const requests = Number(process.env.FUZZ_REQUESTS ?? 800);
const seed = Number(process.env.FUZZ_SEED ?? 424242);

const api = await startTestServer();
const url = new URL(api.url);

// Fixtures: three boards with lanes, tags, tickets (with relations), comments and events.
const fixtureIds: string[] = [];
for (const name of ["fuzz A", "fuzz B", "fuzz C"]) {
  const shell = await createBoard(api, name);
  const lane = shell.lanes[0] as { id: number };
  const tag = await createTag(api, shell.board.id, `${name} tag`);
  const first = await createTicket(api, shell.board.id, { laneId: lane.id, title: "first" });
  const second = await createTicket(api, shell.board.id, {
    laneId: lane.id,
    title: "second",
    tagIds: [tag.id],
    blockerIds: [first.id],
    parentTicketId: first.id,
  });
  const comment = await api.post(`/api/tickets/${second.id}/comments`, { bodyMarkdown: "hi" });
  await api.post(`/api/tickets/${second.id}/events`, { source: "s", kind: "k", title: "t" });
  fixtureIds.push(
    ...[shell.board.id, lane.id, tag.id, first.id, second.id, comment.body.id].map(String),
  );
}

const routes = registeredRoutes(api.server.app);
const observer = new Database(api.dbFile, { readonly: true });
after(() => observer.close());
const dataVersion = () => observer.pragma("data_version", { simple: true }) as number;
const pendingSearchRows = observer.prepare("SELECT count(*) FROM ticket_search_pending").pluck();
/**
 * The server indexes written tickets for search in background transactions of its own
 * (src/domain/search-indexer.ts); they are not the request's writes, so each request is sent
 * once that work is done.
 */
async function searchIndexSettled(): Promise<void> {
  while ((pendingSearchRows.get() as number) > 0) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // The indexer's last transaction may have removed the rows but not yet returned.
  await new Promise((resolve) => setTimeout(resolve, 5));
}

const oddStrings = [
  "",
  " ",
  "\u0000",
  "\uFFFF",
  "\uD800",
  "\u202E\u0041",
  "🀄️👨‍👩‍👧",
  "ǅİßﬀ",
  "a".repeat(600),
  "x".repeat(210_000),
  "<script>alert(1)</script>",
  "'; DROP TABLE tickets; --",
  "%_\\",
  "#1",
  "gh#1",
  "ext#",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "null",
  "true",
  "1e309",
  "-0",
];
const hostileString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom(...oddStrings),
);
const hostileNumber = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -1, 1.5, 2 ** 31, 2 ** 53, 2 ** 53 + 2, 1e308, -1e308, Number.MIN_VALUE),
  fc.constantFrom(...fixtureIds.map(Number)),
);
const deepText = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
const scalar = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(fc.oneof(hostileNumber, hostileString), { maxLength: 6 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 1, arbitrary: fc.object({ maxDepth: 2 }) },
);

const FIELDS = [
  "name",
  "laneNames",
  "title",
  "bodyMarkdown",
  "laneId",
  "boardId",
  "boardIds",
  "priority",
  "isResolved",
  "isCompleted",
  "isArchived",
  "tagIds",
  "blockerIds",
  "relatedIds",
  "parentTicketId",
  "position",
  "beforeTicketId",
  "afterTicketId",
  "laneName",
  "color",
  "ticketIds",
  "items",
  "reason",
  "details",
  "reasonCommentId",
  "source",
  "kind",
  "summary",
  "severity",
  "icon",
  "data",
  "provider",
  "url",
  "instanceUrl",
  "projectKey",
  "issueKey",
  "displayRef",
  "actor",
  "leaseSeconds",
  "format",
  "version",
  "board",
  "lanes",
  "tags",
  "tickets",
  "__proto__",
  "constructor",
  "prototype",
];

/** JSON text built by hand, so `__proto__` is an own key, as a hostile client would send it. */
const objectText = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...FIELDS), hostileString), value), { maxLength: 6 })
  .map(
    (entries) =>
      `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${JSON.stringify(entry)}`).join(",")}}`,
  );
const bodyText = fc.oneof(
  { weight: 8, arbitrary: objectText },
  { weight: 1, arbitrary: value.map((entry) => JSON.stringify(entry) ?? "") },
  { weight: 1, arbitrary: objectText.map((text) => text.slice(0, Math.max(1, text.length - 2))) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(deepText(40), deepText(70), deepText(5000), "[".repeat(9000)),
  },
  { weight: 1, arbitrary: fc.constantFrom("", "{", "nul", "\u0000", '{"a":1}{"b":2}', "[]", "{}") },
);
const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant("application/json") },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/json; charset=latin1",
      "",
    ),
  },
);
/** Every UTF-8 byte as %XX (encodeURIComponent throws on a lone surrogate). */
function percentEncoded(text: string): string {
  return [...Buffer.from(text, "utf8")]
    .map((byte) => `%${byte.toString(16).padStart(2, "0")}`)
    .join("");
}
const pathSegment = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...fixtureIds) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "0",
      "-1",
      "1.5",
      "1e3",
      "0x10",
      "+1",
      "%201",
      "99999999999999999999999",
      "9007199254740993",
      "abc",
      "__proto__",
      "constructor",
      "%00",
      "%F0%9F%92%A9",
      "%D9%A1%D9%A2",
      "..",
      "%2e%2e",
    ),
  },
  { weight: 1, arbitrary: fc.nat().map(String) },
  { weight: 1, arbitrary: hostileString.map(percentEncoded) },
);
const QUERY_NAMES = [
  "q",
  "archived",
  "resolved",
  "completed",
  "tag",
  "ready",
  "limit",
  "__proto__",
];
const query = fc
  .array(
    fc.tuple(fc.constantFrom(...QUERY_NAMES), fc.oneof(hostileString, hostileNumber.map(String))),
    {
      maxLength: 3,
    },
  )
  .map((pairs) =>
    new URLSearchParams(pairs.map(([key, entry]) => [key, String(entry)])).toString(),
  );

/** The value once in `odds` draws, else null. */
function rarely<T>(arbitrary: fc.Arbitrary<T>, odds: number): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: odds - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"];
const fuzzedRequest = fc.record({
  route: fc.constantFrom(...routes),
  otherMethod: rarely(fc.constantFrom(...METHODS), 8),
  segments: fc.array(pathSegment, { minLength: 3, maxLength: 3 }),
  query,
  body: fc.option(bodyText, { freq: 6 }),
  contentType,
  garbagePath: rarely(fc.string({ unit: "grapheme-ascii", maxLength: 60 }), 20),
});

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

function send(
  method: string,
  path: string,
  body: string | undefined,
  type: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (body !== undefined && type !== "") headers["content-type"] = type;
    // Framed explicitly: Node sends a DELETE or GET body unframed otherwise.
    if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
    const req = request(
      { hostname: url.hostname, port: url.port, method, path, headers, agent: false },
      (res) => {
        const answerType = String(res.headers["content-type"] ?? "");
        if (answerType.startsWith("text/event-stream")) {
          // An open board stream: it never ends by itself.
          res.destroy();
          resolve({ status: res.statusCode ?? 0, contentType: answerType, text: "" });
          return;
        }
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: answerType,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

test(`${requests} generated hostile requests to every route: no 5xx, {error} bodies, refused requests write nothing (seed ${seed})`, async () => {
  const statuses: Record<string, number> = {};
  let sent = 0;
  await fc.assert(
    fc.asyncProperty(fuzzedRequest, async (generated) => {
      const method = generated.otherMethod ?? generated.route.method;
      let index = 0;
      let path = generated.route.path.replace(/\{\w+\}/g, () => generated.segments[index++] ?? "1");
      if (generated.garbagePath !== null) path = `/api/${encodeURI(generated.garbagePath)}`;
      if (generated.query) path += `?${generated.query}`;
      // Node's client cannot read the answer to a HEAD that carries a body; send HEAD bare.
      const body = method === "HEAD" ? undefined : (generated.body ?? undefined);
      await searchIndexSettled();
      const before = dataVersion();
      const answer = await send(method, path, body, generated.contentType);
      sent += 1;
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      const where = `${method} ${path.slice(0, 200)} ${generated.contentType} ${body?.slice(0, 200)}`;
      assert.ok(answer.status < 500, `${answer.status} for ${where}: ${answer.text.slice(0, 300)}`);
      if (answer.status >= 400) {
        if (method !== "HEAD") {
          assert.match(answer.contentType, /^application\/json/, where);
          const parsed = JSON.parse(answer.text);
          // The interface's one exception: a failed remote diagnostic is a 400 with its result.
          const diagnostic =
            method === "POST" && path.startsWith("/api/remote-diagnostics") && "status" in parsed;
          // `/mcp` speaks JSON-RPC: its protocol refusals carry a JSON-RPC error object.
          const rpc = path.startsWith("/mcp") && parsed.jsonrpc === "2.0";
          if (rpc) {
            assert.equal(typeof parsed.error?.code, "number", `${where}: ${answer.text}`);
            assert.ok(typeof parsed.error.message === "string", where);
          } else if (!diagnostic) {
            assert.deepEqual(Object.keys(parsed), ["error"], `${where}: ${answer.text}`);
            assert.ok(typeof parsed.error === "string" && parsed.error.length > 0, where);
            assert.doesNotMatch(parsed.error, /\n|SQLITE|sqlite|\(\S+:\d+:\d+\)/, where);
          }
        }
        assert.equal(
          dataVersion(),
          before,
          `refused with ${answer.status} ${answer.text.slice(0, 200)} but committed: ${where}`,
        );
      }
    }),
    { numRuns: requests, seed, endOnFailure: true, includeErrorInReport: true },
  );
  const health = await send("GET", "/api/health", undefined, "");
  assert.equal(health.status, 200, "still answering");
  const fivexx = Object.entries(statuses)
    .filter(([status]) => Number(status) >= 500)
    .reduce((sum, [, count]) => sum + count, 0);
  console.log(JSON.stringify({ requests: sent, fivexx, statuses }));
  assert.equal(fivexx, 0);
});
