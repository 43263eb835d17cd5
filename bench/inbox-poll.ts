/**
 * `npm run bench -- inbox-poll [asks] [requests]`: what the web UI's
 * inbox polling costs the server (ui/ARCHITECTURE.md, "The inbox"): every open page sends
 * `GET /api/asks` with If-None-Match every 4 s. With `asks` open asks (default 10) on a built
 * tack in a child process, `requests` sequential polls (default 2,000) answered 200 with the
 * list, then as many answered 304 (the list unchanged): wall time and server CPU per request.
 */
import { performance } from "node:perf_hooks";
import { cpuMs, startTack } from "./lib.js";
import { printTable } from "./report.js";

const asks = Number(process.argv[2] ?? 10);
const requests = Number(process.argv[3] ?? 2000);

const tack = await startTack();
const post = (path: string, body: unknown) =>
  fetch(tack.url + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }).then((response) => response.json() as Promise<any>);
const created = await post("/api/boards", { name: "Inbox" });
const ticket = await post(`/api/boards/${created.board.id}/tickets`, {
  laneId: created.lanes[0].id,
  title: "Asked about",
});
for (let i = 0; i < asks; i++) {
  await post(`/api/tickets/${ticket.id}/asks`, {
    actor: "agent",
    question: `Question ${i}: **this** or that?`,
    options: ["This", "That"],
  });
}
const first = await fetch(`${tack.url}/api/asks`);
const etag = first.headers.get("etag") ?? "";
const bytes = (await first.arrayBuffer()).byteLength;

async function poll(headers: Record<string, string>): Promise<[number, number, number]> {
  let status = 0;
  const cpuBefore = cpuMs(tack.pid) ?? 0;
  const started = performance.now();
  for (let i = 0; i < requests; i++) {
    const response = await fetch(`${tack.url}/api/asks`, { headers });
    status = response.status;
    await response.arrayBuffer();
  }
  const wall = (performance.now() - started) / requests;
  const cpu = ((cpuMs(tack.pid) ?? 0) - cpuBefore) / requests;
  return [status, wall, cpu];
}
await poll({});
const full = await poll({});
const unchanged = await poll({ "if-none-match": etag });
await tack.stop();
printTable(
  ["answer", "status", "bytes", "ms per poll (wall)", "server CPU ms per poll"],
  [
    ["list", full[0], bytes, full[1].toFixed(2), full[2].toFixed(3)],
    ["unchanged", unchanged[0], 0, unchanged[1].toFixed(2), unchanged[2].toFixed(3)],
  ],
);
