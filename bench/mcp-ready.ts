/**
 * `ready` through `/mcp` (a tools/call in an open MCP session) on a 1,000-ticket board, as an
 * agent host asks it: `tack serve` runs as a child process (its build in dist/: `npm run build`
 * first), the questions come over keep-alive HTTP. Alternated request by request with:
 *   - the same question asked of the API (GET tickets?ready=true), the floor of any client;
 *   - `ping` through /mcp, the transport's own cost;
 *   - `ready` right after a write (a one-title PATCH through the API), when nothing kept helps.
 * Each figure: wall time p50/p99, and the server's main-thread CPU per request, read from
 * /proc/<pid>/schedstat before and after each request (nanoseconds; steady under load, where
 * wall times are not).
 *
 * `npm run bench -- mcp [--rounds N] [--compare <commit>] [--tickets N]`: `--rounds` requests of
 * each kind (default 400); with --compare, that commit's build runs beside this tree's, the two
 * alternated request by request, with the ratios old/new.
 */
import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { buildsToCompare, removeCheckOut } from "./builds.js";
import { issueBoardDocument } from "./dataset.js";
import { startTack, type TackProcess, waitForIdle } from "./lib.js";
import { percentile } from "./load-loop.js";

const { values } = parseArgs({
  options: {
    compare: { type: "string" },
    rounds: { type: "string", default: "400" },
    tickets: { type: "string", default: "1000" },
  },
});
const rounds = Number(values.rounds);
const tickets = Number(values.tickets);

/** Main-thread CPU of a process in ms (precise: the scheduler's own nanoseconds). */
function mainThreadCpuMs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

class Http {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  constructor(readonly url: string) {}

  send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const { hostname, port } = new URL(this.url);
    return new Promise<Answer>((resolve, reject) => {
      const req = request(
        {
          host: hostname,
          port,
          method,
          path,
          agent: this.agent,
          headers: {
            ...(payload === undefined ? {} : { "content-type": "application/json" }),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString("utf8"),
            }),
          );
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

interface Build {
  name: string;
  root: string;
  tack: TackProcess;
  http: Http;
  boardId: number;
  /** Cases by name: each runs one measured request (after any unmeasured preparation). */
  cases: Map<string, { prepare?: () => Promise<void>; run: () => Promise<void> }>;
}

const MCP_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

async function startBuild(name: string, root: string): Promise<Build> {
  const tack = await startTack([], root, { settleMs: 0 });
  const http = new Http(tack.url);
  const imported = await http.send(
    "POST",
    "/api/boards/import",
    issueBoardDocument({ tickets, comments: Math.round(tickets * 2.4) }),
  );
  if (imported.status !== 201) throw new Error(`import: ${imported.status} ${imported.text}`);
  const boardId = (JSON.parse(imported.text) as { board: { id: number } }).board.id;
  await waitForIdle(tack.pid);
  const opened = await http.send(
    "POST",
    "/mcp",
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "bench", version: "1" },
      },
    },
    MCP_HEADERS,
  );
  const session = {
    ...MCP_HEADERS,
    "mcp-session-id": String(opened.headers["mcp-session-id"]),
    "mcp-protocol-version": "2025-11-25",
  };
  const mcp = async (method: string, params: unknown) => {
    const answer = await http.send(
      "POST",
      "/mcp",
      { jsonrpc: "2.0", id: 2, method, params },
      session,
    );
    const body = JSON.parse(answer.text) as { result?: { isError?: boolean } };
    if (answer.status !== 200 || !body.result || body.result.isError) {
      throw new Error(`${name}: ${method}: ${answer.status} ${answer.text.slice(0, 300)}`);
    }
  };
  const readyCall = () => mcp("tools/call", { name: "ready", arguments: {} });
  const ticketIds = (
    JSON.parse((await http.send("GET", `/api/boards/${boardId}/tickets`)).text) as {
      tickets: { id: number }[];
    }
  ).tickets.map((ticket) => ticket.id);
  let writes = 0;
  const cases: Build["cases"] = new Map([
    ["/mcp ready", { run: readyCall }],
    [
      "/mcp ready after a write",
      {
        prepare: async () => {
          const id = ticketIds[writes++ % ticketIds.length];
          const answer = await http.send("PATCH", `/api/tickets/${id}`, {
            title: `renamed ${writes}`,
          });
          if (answer.status !== 200) throw new Error(`PATCH: ${answer.status} ${answer.text}`);
        },
        run: readyCall,
      },
    ],
    ["/mcp ping", { run: () => mcp("ping", {}) }],
    [
      "GET tickets?ready=true",
      {
        run: async () => {
          const answer = await http.send("GET", `/api/boards/${boardId}/tickets?ready=true`);
          if (answer.status !== 200) throw new Error(`API ready: ${answer.status}`);
        },
      },
    ],
  ]);
  return { name, root, tack, http, boardId, cases };
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(" ");
console.log(
  `bench/mcp-ready.ts — node ${process.version}, ${cpus().length} x ${cpus()[0]?.model.trim()}, ${tickets} tickets, ${rounds} rounds, load average ${load()}, ${new Date().toISOString()}`,
);
const checkouts: string[] = [];
const builds: Build[] = [];
try {
  const roots = buildsToCompare(values.compare, checkouts);
  for (const { name, root } of roots) builds.push(await startBuild(name, root));
  const wall = new Map<string, number[]>();
  const cpu = new Map<string, number>();
  for (let round = -20; round < rounds; round++) {
    // Alternated: each build in turn, the order reversed every round.
    const order = round % 2 === 0 ? builds : [...builds].reverse();
    for (const build of order) {
      for (const [caseName, { prepare, run }] of build.cases) {
        await prepare?.();
        const cpuBefore = mainThreadCpuMs(build.tack.pid);
        const start = performance.now();
        await run();
        const took = performance.now() - start;
        const used = mainThreadCpuMs(build.tack.pid) - cpuBefore;
        if (round < 0) continue;
        const key = `${build.name}\t${caseName}`;
        wall.set(key, [...(wall.get(key) ?? []), took]);
        cpu.set(key, (cpu.get(key) ?? 0) + used);
      }
    }
  }
  const figures = (build: Build, caseName: string) => {
    const key = `${build.name}\t${caseName}`;
    const sorted = (wall.get(key) ?? []).sort((a, b) => a - b);
    return {
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      cpu: (cpu.get(key) ?? 0) / Math.max(1, sorted.length),
    };
  };
  console.log("\nbuild | request | p50 ms | p99 ms | server main-thread CPU ms/request");
  for (const build of builds) {
    for (const caseName of build.cases.keys()) {
      const { p50, p99, cpu: perRequest } = figures(build, caseName);
      console.log(
        `${build.name} | ${caseName} | ${p50.toFixed(2)} | ${p99.toFixed(2)} | ${perRequest.toFixed(3)}`,
      );
    }
  }
  if (builds.length === 2) {
    const [old, now] = builds as [Build, Build];
    console.log(`\nratios ${old.name} / this tree (above 1: this tree is faster)`);
    console.log("request | p50 | p99 | CPU");
    for (const caseName of now.cases.keys()) {
      const before = figures(old, caseName);
      const after = figures(now, caseName);
      console.log(
        `${caseName} | ${(before.p50 / after.p50).toFixed(2)}x | ${(before.p99 / after.p99).toFixed(2)}x | ${(before.cpu / after.cpu).toFixed(2)}x`,
      );
    }
  }
  console.log(`\nload average at the end: ${load()}`);
} finally {
  for (const build of builds) {
    build.http.close();
    await build.tack.stop();
  }
  for (const folder of checkouts) removeCheckOut(folder);
}
