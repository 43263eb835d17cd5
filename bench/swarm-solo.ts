/**
 * Server CPU per request of each swarm operation, which the swarm itself cannot split (its
 * requests run at once): right after the swarm, on the board it left, each operation runs alone,
 * one request at a time, for a short block, with every stream still attached (so a write pays
 * for its fan-out) and the UI clients' refetches stopped.
 */
import { performance } from "node:perf_hooks";
import { type Client, cpuMs } from "./lib.js";

export interface SoloCost {
  name: string;
  requests: number;
  /** Server CPU per request in ms (null where /proc is unavailable). */
  cpuMs: number | null;
}

/** At least this many requests per block, however slow they are. */
const MIN_REQUESTS = 3;

/** Runs each operation alone for `blockMs`; returns its cost and the tickets it claimed. */
export async function soloCosts(
  client: Client,
  pid: number,
  boardId: number,
  blockMs: number,
): Promise<{ costs: SoloCost[]; claimed: number[] }> {
  const actor = "solo-agent";
  const costs: SoloCost[] = [];
  const claimed: number[] = [];
  /** Calls `step(i)` until the block's time is up (or `times` times) or it returns false. */
  const block = async (name: string, step: (i: number) => Promise<boolean>, times?: number) => {
    if (times === 0) return;
    const before = cpuMs(pid);
    const until = performance.now() + blockMs;
    const more = (count: number) =>
      times === undefined ? performance.now() < until || count < MIN_REQUESTS : count < times;
    let count = 0;
    while (more(count)) {
      const status = await step(count);
      count++;
      if (!status) break;
    }
    const after = cpuMs(pid);
    costs.push({
      name,
      requests: count,
      cpuMs: before === null || after === null || count === 0 ? null : (after - before) / count,
    });
  };
  const ok = async (method: string, path: string, body?: unknown) => {
    const answer = await client.call(method, path, body, false);
    if (answer.status < 200 || answer.status >= 300) {
      throw new Error(`${method} ${path} answered ${answer.status} (alone, after the swarm)`);
    }
    return true;
  };
  const ticket = (i: number) => claimed[i % claimed.length] as number;

  await block("ready", () => ok("GET", `/api/boards/${boardId}/tickets?ready=true`));
  await block("claim-next", async () => {
    const answer = await client.call("POST", `/api/boards/${boardId}/claim-next`, {
      actor,
      leaseSeconds: 3600,
    });
    if (answer.status === 200) claimed.push(answer.body.id as number);
    return answer.status === 200;
  });
  if (claimed.length > 0) {
    await block("comment", (i) =>
      ok("POST", `/api/tickets/${ticket(i)}/comments`, { bodyMarkdown: `Alone ${i}: **done**.` }),
    );
    await block("ticket event", (i) =>
      ok("POST", `/api/tickets/${ticket(i)}/events`, {
        source: "ci",
        kind: "check",
        title: `${i}`,
      }),
    );
    // Every claimed ticket is resolved or released once, however long that takes: the first
    // half resolved, the rest released.
    const half = Math.ceil(claimed.length / 2);
    await block(
      "resolve",
      (i) => ok("PATCH", `/api/tickets/${ticket(i)}`, { isResolved: true }),
      half,
    );
    await block(
      "release",
      (i) => ok("POST", `/api/tickets/${ticket(half + i)}/release`, { actor }),
      claimed.length - half,
    );
  }
  await block("ui: board shell", () => ok("GET", `/api/boards/${boardId}`));
  if (claimed.length > 0) await block("ui: ticket", (i) => ok("GET", `/api/tickets/${ticket(i)}`));
  await block("ui: full list", () => ok("GET", `/api/boards/${boardId}/tickets?archived=all`));
  return { costs, claimed };
}
