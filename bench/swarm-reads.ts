/**
 * Issue #20's "read right after a write" table: PATCH one ticket's title, then read, one pair at a
 * time; a read's cost is the server CPU of (PATCH + read) pairs minus that of PATCHes alone, so
 * the write's emptying of caches is charged to the read that follows it, as on a board agents are
 * changing. Then claim-next with 32 concurrent callers: server CPU per claim and claims/s, and no
 * ticket handed out twice (nothing is released in that phase).
 */
import { performance } from "node:perf_hooks";
import { RARE_WORD } from "./dataset.js";
import { cpuMs, percentile } from "./lib.js";
import { SwarmClient } from "./swarm-http.js";
import type { ServerHandle } from "./swarm-load.js";

export interface ReadAfterWriteRow {
  name: string;
  /** Server CPU per request in ms (for reads: pair minus PATCH alone), and the target. */
  cpuMs: number | null;
  targetMs: number;
  /** Wall time of the read (or the PATCH, or the claim), p50. */
  p50Ms: number;
  /** Rows in the read's answer, or claims per second for claim-next. */
  detail: string;
}

export interface ReadAfterWriteOptions {
  /** Measured time per scenario, after `warmupMs` unmeasured. */
  durationMs: number;
  warmupMs: number;
  claimCallers?: number;
}

export interface BoardForReads {
  boardId: number;
  /** The lane whose tickets `?lane_id=` reads (~12 % of the board). */
  laneId: number;
}

const TARGETS = { full: 10, lane: 2, search: 1.5, ready: 5, patch: 0.6, claim: 0.6 };

interface PairCost {
  cpuMs: number | null;
  readP50: number;
  patchP50: number;
  rows: number;
}

/** PATCHes `ticketId`'s title then GETs `readPath` (or nothing), for `durationMs`. */
async function pairs(
  client: SwarmClient,
  server: ServerHandle,
  ticketId: number,
  readPath: string | null,
  options: ReadAfterWriteOptions,
): Promise<PairCost> {
  let counter = 0;
  let rows = 0;
  const one = async (measure: { read: number[]; patch: number[] } | null) => {
    const patch = await client.call("PATCH", `/api/tickets/${ticketId}`, {
      title: `Read after write ${counter++} ${RARE_WORD}`,
    });
    if (patch.status !== 200) throw new Error(`PATCH answered ${patch.status}`);
    measure?.patch.push(patch.answeredAt - patch.sentAt);
    if (readPath === null) return;
    const read = await client.call("GET", readPath, undefined, rows === 0);
    if (read.status !== 200) throw new Error(`GET ${readPath} answered ${read.status}`);
    if (read.body) rows = read.body.tickets.length;
    measure?.read.push(read.answeredAt - read.sentAt);
  };
  const warmUntil = performance.now() + options.warmupMs;
  while (performance.now() < warmUntil) await one(null);
  const measure = { read: [] as number[], patch: [] as number[] };
  const before = cpuMs(server.pid);
  const until = performance.now() + options.durationMs;
  while (performance.now() < until) await one(measure);
  const after = cpuMs(server.pid);
  const count = measure.patch.length;
  return {
    cpuMs: before === null || after === null ? null : (after - before) / count,
    readP50: percentile(
      measure.read.sort((a, b) => a - b),
      50,
    ),
    patchP50: percentile(
      measure.patch.sort((a, b) => a - b),
      50,
    ),
    rows,
  };
}

/** The ticket PATCHed before each read: open and ready, in the lane read, with the rare word. */
async function pickTicket(client: SwarmClient, board: BoardForReads): Promise<number> {
  const path = `/api/boards/${board.boardId}/tickets?ready=true&lane_id=${board.laneId}&q=${RARE_WORD}`;
  const answer = await client.call("GET", path);
  const id = answer.body?.tickets?.[0]?.id;
  if (typeof id !== "number") throw new Error(`no ready ticket with "${RARE_WORD}" in the lane`);
  return id;
}

export async function readAfterWrite(
  baseUrl: string,
  server: ServerHandle,
  board: BoardForReads,
  options: ReadAfterWriteOptions,
): Promise<{ rows: ReadAfterWriteRow[]; doubleClaims: number }> {
  const client = new SwarmClient(baseUrl);
  try {
    const ticketId = await pickTicket(client, board);
    const list = `/api/boards/${board.boardId}/tickets`;
    const reads = [
      ["full list", list, TARGETS.full],
      ["one lane (?lane_id=)", `${list}?lane_id=${board.laneId}`, TARGETS.lane],
      [`search (?q=${RARE_WORD})`, `${list}?q=${RARE_WORD}`, TARGETS.search],
      ["ready queue (?ready=true)", `${list}?ready=true`, TARGETS.ready],
    ] as const;
    const alone = await pairs(client, server, ticketId, null, options);
    const rows: ReadAfterWriteRow[] = [];
    for (const [name, path, targetMs] of reads) {
      const pair = await pairs(client, server, ticketId, path, options);
      rows.push({
        name,
        cpuMs: pair.cpuMs === null || alone.cpuMs === null ? null : pair.cpuMs - alone.cpuMs,
        targetMs,
        p50Ms: pair.readP50,
        detail: `${pair.rows} rows`,
      });
    }
    rows.push({
      name: "the write itself (PATCH title)",
      cpuMs: alone.cpuMs,
      targetMs: TARGETS.patch,
      p50Ms: alone.patchP50,
      detail: "",
    });
    const claims = await claimNext(client, server, board.boardId, options);
    rows.push({
      name: `claim-next, ${options.claimCallers ?? 32} concurrent callers`,
      cpuMs: claims.cpuMs,
      targetMs: TARGETS.claim,
      p50Ms: claims.p50,
      detail: `${claims.perSecond.toFixed(0)} claims/s`,
    });
    return { rows, doubleClaims: claims.doubleClaims };
  } finally {
    client.close();
  }
}

/** `callers` agents claim-next at once until the time is up or nothing is ready. */
async function claimNext(
  client: SwarmClient,
  server: ServerHandle,
  boardId: number,
  options: ReadAfterWriteOptions,
): Promise<{ cpuMs: number | null; p50: number; perSecond: number; doubleClaims: number }> {
  const callers = options.claimCallers ?? 32;
  const claimed = new Set<number>();
  let doubleClaims = 0;
  let emptied = false;
  const latencies: number[] = [];
  const run = async (actor: string, until: number, measured: boolean) => {
    while (!emptied && performance.now() < until) {
      const answer = await client.call("POST", `/api/boards/${boardId}/claim-next`, {
        actor,
        leaseSeconds: 3600,
      });
      if (answer.status === 204) emptied = true;
      if (answer.status !== 200) continue;
      const id = answer.body.id as number;
      if (claimed.has(id)) doubleClaims++;
      claimed.add(id);
      if (measured) latencies.push(answer.answeredAt - answer.sentAt);
    }
  };
  const actors = Array.from({ length: callers }, (_, i) => `claimer-${i + 1}`);
  const warmUntil = performance.now() + Math.min(options.warmupMs, 1000);
  await Promise.all(actors.map((actor) => run(actor, warmUntil, false)));
  const before = cpuMs(server.pid);
  const started = performance.now();
  await Promise.all(actors.map((actor) => run(actor, started + options.durationMs, true)));
  const elapsed = performance.now() - started;
  const after = cpuMs(server.pid);
  latencies.sort((a, b) => a - b);
  return {
    cpuMs:
      before === null || after === null || latencies.length === 0
        ? null
        : (after - before) / latencies.length,
    p50: percentile(latencies, 50),
    perSecond: (latencies.length / elapsed) * 1000,
    doubleClaims,
  };
}
