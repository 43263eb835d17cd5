import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../src/server.js";
import { issueBoardDocument } from "./dataset.js";

// `ready` through `/mcp` (a tools/call in an open session) on a 1,000-ticket board, alternated
// with the same question asked of the API directly, so a loaded machine hits both alike.
// node --import tsx bench/mcp-ready.ts [rounds]

const rounds = Number(process.argv[2] ?? 400);
const folder = mkdtempSync(join(tmpdir(), "tack-mcp-bench-"));
const server = await startServer(
  {
    host: "127.0.0.1",
    port: 0,
    dbFile: join(folder, "tack.sqlite"),
    allowedHosts: [],
    logLevel: "silent",
  },
  {},
);
try {
  const document = issueBoardDocument({ tickets: 1000, comments: 2400 });
  const imported = await fetch(`${server.url}/api/boards/import`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(document),
  });
  const boardId = ((await imported.json()) as { board: { id: number } }).board.id;
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const opened = await fetch(`${server.url}/mcp`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "bench", version: "1" },
      },
    }),
  });
  await opened.text();
  const session = {
    ...headers,
    "mcp-session-id": opened.headers.get("mcp-session-id") ?? "",
    "mcp-protocol-version": "2025-11-25",
  };
  const ready = {
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "ready", arguments: {} },
  };
  const viaMcp = async () => {
    const answer = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: session,
      body: JSON.stringify(ready),
    });
    const body = (await answer.json()) as { result?: { isError?: boolean } };
    if (answer.status !== 200 || body.result?.isError) throw new Error(JSON.stringify(body));
  };
  const viaApi = async () => {
    const answer = await fetch(`${server.url}/api/boards/${boardId}/tickets?ready=true`);
    await answer.text();
  };
  const timings = { mcp: [] as number[], api: [] as number[] };
  for (let round = -20; round < rounds; round++) {
    for (const [name, run] of [
      ["mcp", viaMcp],
      ["api", viaApi],
    ] as const) {
      const start = performance.now();
      await run();
      if (round >= 0) timings[name].push(performance.now() - start);
    }
  }
  const p = (values: number[], q: number) =>
    values.sort((a, b) => a - b)[Math.floor(values.length * q)] ?? 0;
  for (const [name, values] of Object.entries(timings)) {
    console.log(
      `${name === "mcp" ? "/mcp tools/call ready" : "GET tickets?ready=true"}: p50 ${p(values, 0.5).toFixed(2)} ms, p90 ${p(values, 0.9).toFixed(2)} ms (${values.length} requests)`,
    );
  }
  console.log(
    `ratio of p50s (mcp / api): ${(p(timings.mcp, 0.5) / p(timings.api, 0.5)).toFixed(2)}`,
  );
} finally {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
}
