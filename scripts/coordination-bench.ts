/**
 * Measures the coordination extensions on a 5,000-ticket board (bench/'s board document and
 * tooling, a child-process tack from dist/): the ticket list uncached, cached and as a 304, the
 * ready queue, ticket detail, and claim-next throughput under 20 concurrent callers.
 * Run: `npm run build && node --import tsx scripts/coordination-bench.ts`.
 */
import { Agent, request } from "node:http";
import { modestBoardDocument } from "../bench/export-import.js";
import {
  type Client,
  cpuMs,
  type HttpResult,
  inParallel,
  type RequestSpec,
  runLoad,
  startTack,
} from "../bench/lib.js";

type Spec = RequestSpec & { headers?: Record<string, string> };

/** bench/lib.ts's Client with request headers (If-None-Match) and the ETag of each answer. */
function headerClient(baseUrl: string) {
  const url = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const send = (spec: Spec): Promise<HttpResult & { etag?: string }> =>
    new Promise((resolve, reject) => {
      const payload = spec.body === undefined ? undefined : JSON.stringify(spec.body);
      const headers: Record<string, string | number> = { ...spec.headers };
      if (payload !== undefined) headers["content-type"] = "application/json";
      const sentAt = performance.now();
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          method: spec.method ?? "GET",
          path: spec.path,
          headers,
          agent,
        },
        (res) => {
          const firstByteAt = performance.now();
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            const lastByteAt = performance.now();
            const text = Buffer.concat(chunks).toString("utf8");
            const body =
              text && String(res.headers["content-type"]).includes("json")
                ? JSON.parse(text)
                : text;
            resolve({
              status: res.statusCode ?? 0,
              body,
              sentAt,
              firstByteAt,
              lastByteAt,
              bytes: Buffer.byteLength(text),
              etag: res.headers.etag,
            });
          });
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
  const ok = async (spec: Spec, status = 200) => {
    const result = await send(spec);
    if (result.status !== status) throw new Error(`${spec.path}: ${result.status}`);
    return result;
  };
  return { send, ok, okResult: ok, close: () => agent.destroy() };
}

const tack = await startTack();
const client = headerClient(tack.url);
const asClient = client as unknown as Client;
try {
  const shell = await client.ok(
    { method: "POST", path: "/api/boards/import", body: modestBoardDocument(5000) },
    201,
  );
  const boardId = shell.body.board.id as number;
  const list = `/api/boards/${boardId}/tickets`;
  const firstList = await client.ok({ path: list });
  const etag = firstList.etag;
  const ticketId = (firstList.body.tickets[2500] as { id: number }).id;
  const load = { concurrency: 10, durationMs: 3000 };
  const scenarios = [
    // An unknown query parameter makes each URL new: the answer is built every time.
    { name: "full list, built (cache miss)", request: (i: number) => ({ path: `${list}?n=${i}` }) },
    { name: "full list, cached", request: () => ({ path: list }) },
    {
      name: "full list, If-None-Match → 304",
      request: () => ({ path: list, headers: { "if-none-match": etag ?? "" }, expect: [304] }),
    },
    {
      name: "ready=true, built (cache miss)",
      request: (i: number) => ({ path: `${list}?ready=true&n=${i}` }),
    },
    { name: "ready=true, cached", request: () => ({ path: `${list}?ready=true` }) },
    {
      name: "ticket detail, built",
      request: (i: number) => ({ path: `/api/tickets/${ticketId}?n=${i}` }),
    },
    { name: "ticket detail, cached", request: () => ({ path: `/api/tickets/${ticketId}` }) },
  ];
  for (const scenario of scenarios) {
    const result = await runLoad(asClient, tack, scenario, load);
    console.log(
      `${scenario.name.padEnd(34)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  ` +
        `p50 ${result.latencyMs.p50.toFixed(2)} ms  cpu/req ${result.serverCpuMsPerRequest?.toFixed(3)} ms` +
        (result.errors ? `  errors ${result.errors} (${result.firstError})` : ""),
    );
  }
  const ready = (await client.ok({ path: `${list}?ready=true` })).body.tickets.length as number;

  // claim-next: 20 callers until the ready queue is empty.
  let claimed = 0;
  let empty = 0;
  const cpuBefore = cpuMs(tack.pid) ?? 0;
  const started = performance.now();
  await inParallel(20, 20, async (caller) => {
    for (;;) {
      const result = await client.send({
        method: "POST",
        path: `/api/boards/${boardId}/claim-next`,
        body: { actor: `agent-${caller}`, leaseSeconds: 600 },
      });
      if (result.status === 204) {
        empty++;
        return;
      }
      if (result.status !== 200) throw new Error(`claim-next answered ${result.status}`);
      claimed++;
    }
  });
  const seconds = (performance.now() - started) / 1000;
  const cpu = (cpuMs(tack.pid) ?? 0) - cpuBefore;
  console.log(
    `claim-next, 20 callers: ${claimed} claims (ready queue ${ready}) in ${seconds.toFixed(2)} s = ` +
      `${(claimed / seconds).toFixed(0)} claims/s, cpu/claim ${(cpu / (claimed + empty)).toFixed(3)} ms`,
  );
} finally {
  client.close();
  await tack.stop();
}
