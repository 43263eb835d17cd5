import assert from "node:assert/strict";
import { type RunningCli, startCli } from "../helpers/cli.js";
import { databaseProblems } from "../helpers/database-dump.js";

/**
 * Kill/restart rounds: a tack process serves a mixed write load from several clients and is
 * killed with SIGKILL mid-load; the next process opens the same file. Every write answered with
 * a 2xx must be there, and nothing half-applied may be: each client sends one request at a time,
 * so at the kill it has at most one request in flight, and after the restart its boards must
 * equal its model either without that request or with all of it (bulk operations and imports
 * included). Test files run this briefly (durability.test.ts) or long (npm run test:durability).
 */

export interface DurabilityOptions {
  dbFile: string;
  rounds: number;
  seed: number;
  clients?: number;
  /** Logs one line per round (the long run). */
  log?: (line: string) => void;
}

export interface DurabilityReport {
  rounds: number;
  acknowledgedWrites: number;
  inFlightAtKill: number;
  inFlightApplied: number;
  claims: "exercised" | "skipped: no claim endpoint";
}

const LANES = ["todo", "doing", "done"];

/** A small deterministic generator, so a failing seed can be replayed. */
function generator(seed: number) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  return {
    int: (below: number) => Math.floor(next() * below),
    pick<T>(items: readonly T[]): T {
      return items[Math.floor(next() * items.length)] as T;
    },
    chance: (p: number) => next() < p,
  };
}

interface TicketState {
  board: "A" | "B";
  lane: string;
  isResolved: boolean;
  isArchived: boolean;
  comments: string[];
}

/** What one client has written, as it can be read back: tickets by title, imports by name. */
interface Model {
  tickets: Record<string, TicketState>;
  imports: Record<string, number>;
}

type Op =
  | { kind: "create"; title: string; board: "A" | "B"; lane: string }
  | { kind: "comment"; title: string; body: string }
  | { kind: "move"; title: string; lane: string }
  | { kind: "bulk-complete"; titles: string[]; isResolved: boolean }
  | { kind: "bulk-archive"; titles: string[]; isArchived: boolean }
  | { kind: "bulk-move"; titles: string[]; board: "A" | "B"; lane: string }
  | { kind: "import"; name: string; tickets: number; commentsPerTicket: number }
  | { kind: "claim"; title: string; actor: string };

function applyOp(model: Model, op: Op): Model {
  const next: Model = structuredClone(model);
  const each = (titles: string[], change: (ticket: TicketState) => void) => {
    for (const title of titles) change(next.tickets[title] as TicketState);
  };
  switch (op.kind) {
    case "create":
      next.tickets[op.title] = {
        board: op.board,
        lane: op.lane,
        isResolved: false,
        isArchived: false,
        comments: [],
      };
      break;
    case "comment":
      next.tickets[op.title]?.comments.push(op.body);
      next.tickets[op.title]?.comments.sort();
      break;
    case "move":
      each([op.title], (ticket) => {
        ticket.lane = op.lane;
      });
      break;
    case "bulk-complete":
      each(op.titles, (ticket) => {
        ticket.isResolved = op.isResolved;
      });
      break;
    case "bulk-archive":
      each(op.titles, (ticket) => {
        ticket.isArchived = op.isArchived;
      });
      break;
    case "bulk-move":
      each(op.titles, (ticket) => {
        ticket.board = op.board;
        ticket.lane = op.lane;
      });
      break;
    case "import":
      next.imports[op.name] = op.tickets * (1 + op.commentsPerTicket);
      break;
    case "claim":
      break; // claims are checked on their own (they are not part of an export)
  }
  return next;
}

interface Client {
  index: number;
  boards: {
    A: { id: number; lanes: Record<string, number> };
    B: { id: number; lanes: Record<string, number> };
  };
  model: Model;
  counter: number;
  ids: Record<string, number>;
  claims: Record<string, string>;
}

async function call(base: string, method: string, path: string, body?: unknown) {
  const response = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

export async function runDurabilityRounds(options: DurabilityOptions): Promise<DurabilityReport> {
  const random = generator(options.seed);
  const clientCount = options.clients ?? 3;
  const report: DurabilityReport = {
    rounds: 0,
    acknowledgedWrites: 0,
    inFlightAtKill: 0,
    inFlightApplied: 0,
    claims: "exercised",
  };
  let claimsAvailable = true;
  let server: RunningCli = await startCli(["--port", "0", "--db", options.dbFile]);
  const clients: Client[] = [];
  try {
    for (let index = 0; index < clientCount; index += 1) {
      const board = async (name: string) => {
        const created = await call(server.url, "POST", "/api/boards", { name, laneNames: LANES });
        assert.equal(created.status, 201);
        const lanes: Record<string, number> = {};
        for (const lane of created.body.lanes) lanes[lane.name] = lane.id;
        return { id: created.body.board.id as number, lanes };
      };
      clients.push({
        index,
        boards: { A: await board(`client ${index} A`), B: await board(`client ${index} B`) },
        model: { tickets: {}, imports: {} },
        counter: 0,
        ids: {},
        claims: {},
      });
    }

    for (let round = 1; round <= options.rounds; round += 1) {
      // Kill once the clients together have had this many writes acknowledged.
      const killAfter = 15 + random.int(40);
      let acknowledged = 0;
      let killed = false;
      const inFlight = new Map<Client, Op>();
      const base = server.url;

      const nextOp = (client: Client): Op => {
        client.counter += 1;
        const name = `c${client.index}-r${round}-${client.counter}`;
        const titles = Object.keys(client.model.tickets);
        const some = () => {
          const chosen = new Set<string>();
          const count = 1 + random.int(Math.min(5, titles.length));
          while (chosen.size < count) chosen.add(random.pick(titles));
          return [...chosen];
        };
        const roll = titles.length < 3 ? 0 : random.int(100);
        if (roll < 25)
          return {
            kind: "create",
            title: name,
            board: random.pick(["A", "B"] as const),
            lane: random.pick(LANES),
          };
        if (roll < 45)
          return { kind: "comment", title: random.pick(titles), body: `comment ${name}` };
        if (roll < 60)
          return { kind: "move", title: random.pick(titles), lane: random.pick(LANES) };
        if (roll < 68)
          return { kind: "bulk-complete", titles: some(), isResolved: random.chance(0.5) };
        if (roll < 76)
          return { kind: "bulk-archive", titles: some(), isArchived: random.chance(0.3) };
        if (roll < 84)
          return {
            kind: "bulk-move",
            titles: some(),
            board: random.pick(["A", "B"] as const),
            lane: random.pick(LANES),
          };
        if (roll < 92 && claimsAvailable)
          return { kind: "claim", title: random.pick(titles), actor: `agent-${client.index}` };
        return {
          kind: "import",
          name: `import ${name}`,
          tickets: 2 + random.int(20),
          commentsPerTicket: random.int(4),
        };
      };

      const send = async (client: Client, op: Op) => {
        const id = (title: string) => client.ids[title] as number;
        const boardOf = (title: string) => client.boards[client.model.tickets[title]?.board ?? "A"];
        switch (op.kind) {
          case "create": {
            const board = client.boards[op.board];
            const response = await call(base, "POST", `/api/boards/${board.id}/tickets`, {
              laneId: board.lanes[op.lane],
              title: op.title,
              bodyMarkdown: `body of ${op.title}`,
            });
            if (response.status === 201) client.ids[op.title] = response.body.id;
            return response;
          }
          case "comment":
            return call(base, "POST", `/api/tickets/${id(op.title)}/comments`, {
              bodyMarkdown: op.body,
            });
          case "move":
            return call(base, "POST", `/api/tickets/${id(op.title)}/position`, {
              laneId: boardOf(op.title).lanes[op.lane],
            });
          case "bulk-complete":
          case "bulk-archive": {
            // Bulk endpoints take tickets of one board: the first ticket's board, and only those.
            const board = client.model.tickets[op.titles[0] as string]?.board;
            op.titles = op.titles.filter((title) => client.model.tickets[title]?.board === board);
            const path = `/api/boards/${boardOf(op.titles[0] as string).id}/tickets/${op.kind}`;
            return call(base, "POST", path, {
              ticketIds: op.titles.map(id),
              ...(op.kind === "bulk-complete"
                ? { isResolved: op.isResolved }
                : { isArchived: op.isArchived }),
            });
          }
          case "bulk-move": {
            const board = client.model.tickets[op.titles[0] as string]?.board;
            op.titles = op.titles.filter((title) => client.model.tickets[title]?.board === board);
            const target = client.boards[op.board];
            return call(
              base,
              "POST",
              `/api/boards/${boardOf(op.titles[0] as string).id}/tickets/bulk-move`,
              {
                ticketIds: op.titles.map(id),
                boardId: target.id,
                laneId: target.lanes[op.lane],
              },
            );
          }
          case "import":
            return call(base, "POST", "/api/boards/import", importDocument(op));
          case "claim": {
            const response = await call(base, "POST", `/api/tickets/${id(op.title)}/claim`, {
              actor: op.actor,
              leaseSeconds: 86_400,
            });
            if (response.status === 404 && /no route/.test(String(response.body?.error))) {
              claimsAvailable = false;
              report.claims = "skipped: no claim endpoint";
            }
            return response;
          }
        }
      };

      const work = async (client: Client) => {
        while (!killed) {
          const op = nextOp(client);
          inFlight.set(client, op);
          let response: { status: number };
          try {
            response = await send(client, op);
          } catch {
            return; // the connection died with the process: the op stays in flight
          }
          inFlight.delete(client);
          if (response.status >= 200 && response.status < 300) {
            client.model = applyOp(client.model, op);
            if (op.kind === "claim") client.claims[op.title] = op.actor;
            acknowledged += 1;
            report.acknowledgedWrites += 1;
            if (acknowledged >= killAfter && !killed) {
              killed = true;
              server.child.kill("SIGKILL");
            }
          } else if (response.status >= 500) {
            throw new Error(`${op.kind} answered ${response.status}: ${JSON.stringify(response)}`);
          }
          // A 4xx (a claim of a resolved ticket, say) wrote nothing: the model stays as it is.
        }
      };
      await Promise.all(clients.map(work));
      const exit = await server.stop("SIGKILL");
      assert.equal(exit.signal, "SIGKILL");

      server = await startCli(["--port", "0", "--db", options.dbFile]);
      report.inFlightAtKill += inFlight.size;
      for (const client of clients) {
        const applied = await verifyClient(server.url, client, inFlight.get(client));
        if (applied) report.inFlightApplied += 1;
      }
      report.rounds = round;
      options.log?.(
        `round ${round}: ${report.acknowledgedWrites} writes acknowledged so far, ${inFlight.size} in flight at the kill`,
      );
    }
  } finally {
    await server.stop("SIGTERM");
  }
  assert.deepEqual(databaseProblems(options.dbFile), []);
  return report;
}

function importDocument(op: Extract<Op, { kind: "import" }>) {
  return {
    board: { name: op.name },
    lanes: LANES.map((name, index) => ({ id: index + 1, name })),
    tickets: Array.from({ length: op.tickets }, (_, index) => ({
      id: index + 1,
      laneId: 1 + (index % LANES.length),
      title: `imported ${index}`,
      comments: Array.from({ length: op.commentsPerTicket }, (_, n) => ({
        id: 1000 * (index + 1) + n,
        bodyMarkdown: `imported comment ${n}`,
      })),
    })),
  };
}

/** Reads the client's boards back; returns whether its in-flight request had been applied. */
async function verifyClient(
  base: string,
  client: Client,
  inFlight: Op | undefined,
): Promise<boolean> {
  const actual = await readModel(base, client);
  const without = client.model;
  if (sameModel(actual, without)) return false;
  assert.ok(
    inFlight,
    `client ${client.index}: state differs with nothing in flight\n${diff(actual, without)}`,
  );
  const withIt = applyOp(without, inFlight);
  assert.ok(
    sameModel(actual, withIt),
    `client ${client.index}: ${inFlight.kind} was half-applied or a write was lost\n${diff(actual, withIt)}`,
  );
  client.model = withIt;
  if (inFlight.kind === "create") {
    // Its id was never answered; learn it from the board.
    const board = client.boards[inFlight.board];
    const listed = await call(base, "GET", `/api/boards/${board.id}/tickets?archived=all`);
    client.ids[inFlight.title] = listed.body.tickets.find(
      (t: { title: string }) => t.title === inFlight.title,
    ).id;
  }
  if (inFlight.kind === "claim") client.claims[inFlight.title] = inFlight.actor;
  for (const [title, actor] of Object.entries(client.claims)) {
    const ticket = await call(base, "GET", `/api/tickets/${client.ids[title]}`);
    // A later resolve, archive or board move may have ended the claim (docs/api.md, "Coordination
    // for agents").
    if (ticket.body.claim) assert.equal(ticket.body.claim.actor, actor);
  }
  return true;
}

async function readModel(base: string, client: Client): Promise<Model> {
  const model: Model = { tickets: {}, imports: {} };
  for (const side of ["A", "B"] as const) {
    const exported = await call(base, "GET", `/api/boards/${client.boards[side].id}/export`);
    assert.equal(exported.status, 200);
    const laneNames = new Map<number, string>(
      exported.body.lanes.map((lane: { id: number; name: string }) => [lane.id, lane.name]),
    );
    for (const ticket of exported.body.tickets) {
      model.tickets[ticket.title] = {
        board: side,
        lane: laneNames.get(ticket.laneId) as string,
        isResolved: ticket.isResolved,
        isArchived: ticket.isArchived,
        comments: ticket.comments
          .map((comment: { bodyMarkdown: string }) => comment.bodyMarkdown)
          .sort(),
      };
    }
  }
  const boards = (await call(base, "GET", "/api/boards")).body.boards as {
    id: number;
    name: string;
  }[];
  for (const board of boards) {
    if (!board.name.startsWith(`import c${client.index}-`)) continue;
    const exported = (await call(base, "GET", `/api/boards/${board.id}/export`)).body;
    model.imports[board.name] = exported.tickets.reduce(
      (sum: number, ticket: { comments: unknown[] }) => sum + 1 + ticket.comments.length,
      0,
    );
  }
  return model;
}

function sameModel(a: Model, b: Model): boolean {
  try {
    assert.deepEqual(a, b);
    return true;
  } catch {
    return false;
  }
}

function diff(actual: Model, expected: Model): string {
  try {
    assert.deepEqual(actual, expected);
    return "";
  } catch (error) {
    return String((error as Error).message).slice(0, 2000);
  }
}
