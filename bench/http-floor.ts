/**
 * `node --import tsx bench/http-floor.ts` (after `npm run build`): server CPU per request of
 * the cheapest answers tack gives, 10 in flight: `/api/health`, a ticket detail answered from
 * the answer cache, the board list. What any request costs before tack does any work of its own.
 */
import { Client, startTack } from "./lib.js";
import { runLoad } from "./load-loop.js";

const tack = await startTack([], undefined, { settleMs: 500 });
const client = new Client(tack.url, 16);
try {
  const board = await client.ok({ method: "POST", path: "/api/boards", body: { name: "b" } }, 201);
  const ticket = await client.ok(
    {
      method: "POST",
      path: `/api/boards/${board.board.id}/tickets`,
      body: { laneId: board.lanes[0].id, title: "x", bodyMarkdown: "hello" },
    },
    201,
  );
  const paths = [
    ["health", "/api/health"],
    ["ticket detail (cached)", `/api/tickets/${ticket.id}`],
    ["boards", "/api/boards"],
  ] as const;
  for (const [name, path] of paths) {
    const result = await runLoad(
      client,
      tack,
      { name, request: () => ({ path }) },
      { concurrency: 10, durationMs: 3000, warmupRequests: 300 },
    );
    console.log(
      `${name}: ${result.serverCpuMsPerRequest?.toFixed(3)} ms server CPU/request, ${result.requestsPerSecond.toFixed(0)} req/s`,
    );
  }
} finally {
  client.close();
  await tack.stop();
}
