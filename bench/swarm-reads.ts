/**
 * The swarm's "read right after a write" table: PATCH one ticket's title, then read; a read's
 * cost is the server CPU per (PATCH + read) pair minus that per PATCH alone, in blocks that
 * alternate, so the write's emptying of caches is charged to the read that follows it, as on a
 * board agents are changing. Then claim-next with 32 concurrent callers: server CPU per claim
 * and claims/s, and no ticket handed out twice (nothing is released in that phase).
 */
import { performance } from "node:perf_hooks";
import { RARE_WORD } from "./dataset.js";
import { Client, cpuMs } from "./lib.js";
import { percentile } from "./load-loop.js";
import { type BoardStream, openBoardStream } from "./swarm-http.js";
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
  /**
   * Before the whole table, unmeasured: title PATCHes alone for half this time, then PATCH +
   * read pairs of every read form in turn for the other half (`serverWarmup`). Default 0.
   */
  serverWarmupMs?: number;
  claimCallers?: number;
  /**
   * Board streams held open (reading every message) while this table is measured: the issue's
   * targets are for a board that two UIs and 32 agents follow, so each write's fan-out counts.
   * Default 0.
   */
  streams?: number;
}

export interface BoardForReads {
  boardId: number;
  /** The lane whose tickets `?lane_id=` reads (~12 % of the board). */
  laneId: number;
}

/** Requests per measured block at least, however slow they are. */
const MIN_PAIRS_PER_BLOCK = 2;
const TARGETS = { full: 10, lane: 2, search: 1.5, ready: 5, patch: 0.6, claim: 0.6 };

/** Blocks of PATCHes alone and of (PATCH + read) pairs alternate, this many of each per read. */
const BLOCKS = 4;

interface Tally {
  cpuMs: number;
  count: number;
  latencies: number[];
}

const tally = (): Tally => ({ cpuMs: 0, count: 0, latencies: [] });
const perRequest = (t: Tally) => (t.count === 0 ? 0 : t.cpuMs / t.count);
const p50 = (t: Tally) =>
  percentile(
    [...t.latencies].sort((a, b) => a - b),
    50,
  );

/**
 * Measures a read right after a write: blocks of PATCHes alone alternate with blocks of (PATCH
 * + read) pairs, so both see the same spell of the shared machine; background work a PATCH leaves
 * (search indexing) mostly lands inside its own block. Adds to `alone` and `pair`.
 */
async function readAfterPatch(
  client: Client,
  server: ServerHandle,
  ticketId: number,
  readPath: string,
  options: ReadAfterWriteOptions,
  alone: Tally,
  pair: Tally,
): Promise<number> {
  let counter = 0;
  let rows = 0;
  const patch = async (latencies: number[] | null) => {
    const answer = await client.call("PATCH", `/api/tickets/${ticketId}`, {
      title: `Read after write ${counter++} ${RARE_WORD}`,
    });
    if (answer.status !== 200) throw new Error(`PATCH answered ${answer.status}`);
    latencies?.push(answer.lastByteAt - answer.sentAt);
  };
  const read = async (latencies: number[] | null) => {
    const answer = await client.call("GET", readPath, undefined, rows === 0);
    if (answer.status !== 200) throw new Error(`GET ${readPath} answered ${answer.status}`);
    if (answer.body) rows = answer.body.tickets.length;
    latencies?.push(answer.lastByteAt - answer.sentAt);
  };
  const warmUntil = performance.now() + options.warmupMs;
  while (performance.now() < warmUntil) {
    await patch(null);
    await read(null);
  }
  const block = async (into: Tally, withRead: boolean) => {
    const before = cpuMs(server.pid);
    const until = performance.now() + options.durationMs / BLOCKS;
    let done = 0;
    while (performance.now() < until || done < MIN_PAIRS_PER_BLOCK) {
      await patch(withRead ? null : into.latencies);
      if (withRead) await read(into.latencies);
      done++;
    }
    const after = cpuMs(server.pid);
    if (before !== null && after !== null) into.cpuMs += after - before;
    into.count += done;
  };
  for (let i = 0; i < BLOCKS; i++) {
    await block(alone, false);
    await block(pair, true);
  }
  return rows;
}

/**
 * Brings a fresh server to the state it is in after it has served a while: its JIT has compiled
 * the PATCH's and the reads' code, its checkpoint thread has started. Without it the first
 * forms' blocks (the full list's and the lane's) also pay that one-time work, on V8's helper
 * threads (concurrent compilation) and in a slower main thread, and most of it lands in their
 * PATCH-alone blocks, so the PATCH row held start-up cost (docs/performance.md, "How to
 * measure"). Title PATCHes alone for half the time (a
 * build of either speed does thousands), then PATCH + read pairs of every form in turn.
 */
async function serverWarmup(
  client: Client,
  ticketId: number,
  readPaths: readonly string[],
  warmupMs: number,
): Promise<void> {
  if (warmupMs <= 0) return;
  let counter = 0;
  const patch = async () => {
    const answer = await client.call("PATCH", `/api/tickets/${ticketId}`, {
      title: `Warm-up ${counter++} ${RARE_WORD}`,
    });
    if (answer.status !== 200) throw new Error(`PATCH answered ${answer.status}`);
  };
  const started = performance.now();
  while (performance.now() < started + warmupMs / 2) await patch();
  for (let form = 0; performance.now() < started + warmupMs; form++) {
    const path = readPaths[form % readPaths.length] as string;
    await patch();
    const answer = await client.call("GET", path, undefined, false);
    if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}`);
  }
}

/** The ticket PATCHed before each read: open and ready, in the lane read, with the rare word. */
async function pickTicket(client: Client, board: BoardForReads): Promise<number> {
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
  const client = new Client(baseUrl, 128);
  const streams: BoardStream[] = [];
  try {
    for (let i = 0; i < (options.streams ?? 0); i++) {
      streams.push(await openBoardStream(baseUrl, board.boardId, () => {}));
    }
    const ticketId = await pickTicket(client, board);
    const measurable = cpuMs(server.pid) !== null;
    const list = `/api/boards/${board.boardId}/tickets`;
    const reads = [
      ["full list", list, TARGETS.full],
      ["one lane (?lane_id=)", `${list}?lane_id=${board.laneId}`, TARGETS.lane],
      [`search (?q=${RARE_WORD})`, `${list}?q=${RARE_WORD}`, TARGETS.search],
      ["ready queue (?ready=true)", `${list}?ready=true`, TARGETS.ready],
    ] as const;
    await serverWarmup(
      client,
      ticketId,
      reads.map(([, path]) => path),
      options.serverWarmupMs ?? 0,
    );
    const alone = tally();
    const rows: ReadAfterWriteRow[] = [];
    for (const [name, path, targetMs] of reads) {
      const pair = tally();
      const count = await readAfterPatch(client, server, ticketId, path, options, alone, pair);
      rows.push({
        name,
        cpuMs: measurable ? perRequest(pair) - perRequest(alone) : null,
        targetMs,
        p50Ms: p50(pair),
        detail: `${count} rows`,
      });
    }
    rows.push({
      name: "the write itself (PATCH title)",
      cpuMs: measurable ? perRequest(alone) : null,
      targetMs: TARGETS.patch,
      p50Ms: p50(alone),
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
    for (const stream of streams) stream.close();
    client.close();
  }
}

/** `callers` agents claim-next at once until the time is up or nothing is ready. */
async function claimNext(
  client: Client,
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
      if (measured) latencies.push(answer.lastByteAt - answer.sentAt);
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
