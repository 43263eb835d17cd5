/**
 * `npm run bench -- ask-waiters [callers] [seconds] [one]`: what callers waiting on asks
 * (`GET /api/asks/{id}?wait=60`, docs/api.md "Asks") cost the server, a child process started
 * as users start it. Default 200 callers, each on its own connection and its own ask, and
 * 10-second windows; with `one`, every caller waits on the same ask.
 *
 * 1. Idle: the server's CPU time and RSS over one window with nobody waiting.
 * 2. Waiting: the callers send their GETs; once every one has been sent (and a second more), the
 *    server's CPU time and RSS over one window while they all wait. A waiter is a callback and a
 *    timer, so this window should look like the idle one.
 * 3. Waking: every ask is answered; how long until every caller has its answer, and the
 *    server's CPU for answering and waking them all.
 */
import { performance } from "node:perf_hooks";
import { Client, cpuMs, readMemory, startTack } from "./lib.js";
import { printTable } from "./report.js";

const callers = Number(process.argv[2] ?? 200);
const windowSeconds = Number(process.argv[3] ?? 10);
const oneAsk = process.argv[4] === "one";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const tack = await startTack();
// One connection per waiting caller, as separate agents would hold them, plus the writer's.
const waiting = new Client(tack.url, callers);
const writer = new Client(tack.url, 4);

/** CPU ms the server used over `seconds`, and its RSS at the end. */
async function window(seconds: number): Promise<{ cpuMs: number; rssMiB: number }> {
  const before = cpuMs(tack.pid) ?? Number.NaN;
  await sleep(seconds * 1000);
  const after = cpuMs(tack.pid) ?? Number.NaN;
  return { cpuMs: after - before, rssMiB: readMemory(tack.pid)?.rssMiB ?? Number.NaN };
}

try {
  const shell = await writer.ok(
    { method: "POST", path: "/api/boards", body: { name: "Asks" } },
    201,
  );
  const laneId = shell.lanes[0].id as number;
  const ticket = await writer.ok(
    {
      method: "POST",
      path: `/api/boards/${shell.board.id}/tickets`,
      body: { laneId, title: "asked about" },
    },
    201,
  );
  const askIds: number[] = [];
  for (let index = 0; index < (oneAsk ? 1 : callers); index++) {
    const ask = await writer.ok(
      {
        method: "POST",
        path: `/api/tickets/${ticket.id}/asks`,
        body: { actor: `agent-${index}`, question: `Question ${index}?`, options: ["yes", "no"] },
      },
      201,
    );
    askIds.push(ask.id as number);
  }
  // Warm the GET route (its schemas compile on first use) before measuring.
  await writer.ok({ path: `/api/asks/${askIds[0]}` });
  await sleep(1000);

  const idle = await window(windowSeconds);

  const waitedOn = oneAsk ? Array.from({ length: callers }, () => askIds[0] as number) : askIds;
  const answers = waitedOn.map((askId) =>
    waiting.send({ path: `/api/asks/${askId}?wait=60` }).then((result) => {
      if (result.status !== 200 || result.body.status !== "answered") {
        throw new Error(`ask ${askId}: ${result.status} ${JSON.stringify(result.body)}`);
      }
      return result.lastByteAt;
    }),
  );
  // Every request on the wire and registered (the server reads each once, then waits).
  await sleep(1000);
  const held = await window(windowSeconds);

  const wakeCpuBefore = cpuMs(tack.pid) ?? Number.NaN;
  const answeringStarted = performance.now();
  await Promise.all(
    askIds.map((askId) =>
      writer.ok({
        method: "POST",
        path: `/api/asks/${askId}/answer`,
        body: { by: "dev", option: "yes" },
      }),
    ),
  );
  const lastAnswer = Math.max(...(await Promise.all(answers)));
  const wakeMs = lastAnswer - answeringStarted;
  await sleep(500);
  const wakeCpu = (cpuMs(tack.pid) ?? Number.NaN) - wakeCpuBefore;

  const layout = oneAsk ? "all on one ask" : "one ask each";
  console.log(`${callers} callers waiting with ?wait=60, ${layout}; ${windowSeconds} s windows`);
  printTable(
    ["phase", "server CPU (ms)", "CPU per second (ms)", "RSS at end (MiB)"],
    [
      [
        "idle, nobody waiting",
        idle.cpuMs,
        (idle.cpuMs / windowSeconds).toFixed(1),
        idle.rssMiB.toFixed(1),
      ],
      [
        `${callers} waiting`,
        held.cpuMs,
        (held.cpuMs / windowSeconds).toFixed(1),
        held.rssMiB.toFixed(1),
      ],
    ],
  );
  console.log(
    `answering ${askIds.length} ask(s) (4 connections) until the last waiter had its answer: ` +
      `${wakeMs.toFixed(0)} ms, server CPU ${wakeCpu.toFixed(0)} ms ` +
      `(${(wakeCpu / callers).toFixed(2)} ms per waiter)`,
  );
  console.log(`RSS difference waiting vs idle: ${(held.rssMiB - idle.rssMiB).toFixed(1)} MiB`);
} finally {
  waiting.close();
  writer.close();
  await tack.stop();
}
