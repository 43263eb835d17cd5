import assert from "node:assert/strict";
import { after, test } from "node:test";
import { useClock } from "../../src/domain/clock.js";
import { startFakeGitHub } from "../fakes/github.js";
import { seededRandom } from "../helpers/random.js";
import { startTestServer } from "../helpers/server.js";
import { credentialsEnv, TOKENS } from "./remote-fixtures.js";

// The answers kept in memory (src/kept-answers: board lists, full tickets' parts and JSON)
// answer byte for byte what a list or ticket built from the database gives. One server writes and
// answers from what it keeps; a second one on the same database file, in the reference mode,
// reads and serializes every answer anew. Random writes of every kind are interleaved with reads
// of every list form, and each answer of the first is compared with the second's.
// test/kept-answers/ tests the module itself, one kind of change at a time.
// Tickets tracking a remote issue are imported from a fake GitHub (the last test).
const gh = await startFakeGitHub({ token: TOKENS.github });
after(() => gh.close());
// Runs of two tickets: the lane and ready texts of these small boards then span many runs, so
// each run's invalidation is tested (a big board keeps runs of 64).
const live = await startTestServer({
  env: credentialsEnv({ [`github:${gh.instanceUrl}`]: TOKENS.github }),
  answers: { runLength: 2 },
});
const fresh = await startTestServer({ dbFile: live.dbFile, answers: { reference: true } });
let clock = Date.parse("2030-01-01T00:00:00.000Z");
after(useClock(() => clock));

const SEED = Number(process.env.LIVE_LISTS_SEED ?? 20);
/**
 * The first steps write each kind once, in order, then kinds are picked at random. `npm test`
 * runs each kind once and a few more: enough to catch each invalidation the memory depends on
 * (breaking the re-read of changed tickets or the lane texts' invalidation fails at step 0, the
 * claim expiry at step 21, the clock's first turn; the children re-check fails the next test).
 * `npm run test:soak` runs many more random steps (LIVE_LISTS_STEPS, LIVE_LISTS_SEED).
 */
const STEPS = Number(process.env.LIVE_LISTS_STEPS ?? 36);
const random = seededRandom(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const some = <T>(items: readonly T[], most: number): T[] => [
  ...new Set(Array.from({ length: Math.floor(random() * (most + 1)) }, () => pick(items))),
];

const WORDS = ["alpha", "boiler", "comet", "delta", "ember"];

function importDocument(name: string, tickets: number) {
  return {
    format: "tack.board",
    version: 1,
    board: { name },
    lanes: [1, 2, 3].map((id) => ({ id, name: `lane ${id}` })),
    tags: [1, 2, 3].map((id) => ({ id, name: `tag ${id}` })),
    tickets: Array.from({ length: tickets }, (_, i) => ({
      id: i + 1,
      laneId: (i % 3) + 1,
      title: `Ticket ${i + 1} ${WORDS[i % WORDS.length]}`,
      bodyMarkdown: i % 4 === 0 ? `Body with ${WORDS[(i + 2) % WORDS.length]}` : "",
      priority: (i % 4) + 1,
      position: Math.floor(i / 3),
      isResolved: i % 7 === 0,
      isArchived: i % 11 === 10,
      parentTicketId: i % 5 === 4 ? i - 2 : null,
      tags: i % 2 === 0 ? [{ name: `tag ${(i % 3) + 1}` }] : [],
      blockerIds: i % 6 === 5 ? [i - 3] : [],
      relatedIds: i % 8 === 7 ? [i - 5] : [],
    })),
  };
}

interface BoardState {
  id: number;
  laneIds: number[];
  tagIds: number[];
}

async function importBoard(name: string, tickets: number): Promise<BoardState> {
  const answer = await live.post("/api/boards/import", importDocument(name, tickets));
  assert.equal(answer.status, 201, answer.text);
  return {
    id: answer.body.board.id,
    laneIds: answer.body.lanes.map((lane: { id: number }) => lane.id),
    tagIds: answer.body.tags.map((tag: { id: number }) => tag.id),
  };
}

const boards = [await importBoard("Main", 36), await importBoard("Other", 6)];

/** Ids of the tickets currently on a board (from the fresh server). */
async function ticketIds(board: BoardState): Promise<number[]> {
  const answer = await fresh.get(`/api/boards/${board.id}/tickets?archived=all`);
  return answer.body.tickets.map((ticket: { id: number }) => ticket.id);
}

/** Every list form of a board, answered by both servers, compared byte for byte. */
async function compareLists(board: BoardState, step: string): Promise<void> {
  const forms = [
    "",
    "?archived=all",
    "?archived=true",
    "?resolved=false",
    "?resolved=true&archived=all",
    `?lane_id=${pick(board.laneIds)}`,
    `?lane_id=${pick(board.laneIds)}&archived=all`,
    `?q=${pick(WORDS)}`,
    `?q=%23${1 + Math.floor(random() * 40)}`,
    "?tag=TAG%202",
    "?ready=true",
    `?ready=true&lane_id=${pick(board.laneIds)}`,
    "?ready=true&archived=all",
    "?ready=true&tag=tag%201",
  ];
  for (const form of forms) {
    const path = `/api/boards/${board.id}/tickets${form}`;
    const [mine, reference] = [await live.get(path), await fresh.get(path)];
    assert.equal(mine.status, reference.status, `${step}: ${path}`);
    assert.equal(mine.text, reference.text, `${step}: ${path} differs`);
  }
}

/**
 * Every ticket of a board in full (GET /api/tickets/{id}), answered by both servers: the first
 * keeps each ticket's comments, tags, references and relations between requests
 * (src/kept-answers/ticket-parts.ts), the second reads them anew.
 */
async function compareTickets(board: BoardState, step: string): Promise<void> {
  for (const id of await ticketIds(board)) {
    const path = `/api/tickets/${id}`;
    const [mine, reference] = [await live.get(path), await fresh.get(path)];
    assert.equal(mine.status, reference.status, `${step}: ${path}`);
    assert.equal(mine.text, reference.text, `${step}: ${path} differs`);
  }
}

type Write = (board: BoardState, ids: number[]) => Promise<unknown>;

/** Writes answering a full Ticket: each answer is compared with the fresh server's GET of it. */
const TICKET_ANSWERS = new Set([
  ...["title", "priority", "resolve", "archive", "lane", "parent", "blockers", "related"],
  ...["tags", "position", "transition", "move", "moveBack", "claim", "claimNext", "release"],
  ...["notBefore", "tasks", "check"],
]);

/**
 * A write's answer, when it is a full Ticket (joined from kept JSON: src/kept-answers/ticket-json.ts), against
 * the fresh server's GET of that ticket right after it.
 */
async function compareAnswer(kind: string, answer: unknown, step: string): Promise<void> {
  if (!TICKET_ANSWERS.has(kind) || answer === undefined) return;
  const { status, text, body } = answer as { status: number; text: string; body: { id: number } };
  if (status !== 200) return;
  const reference = await fresh.get(`/api/tickets/${body.id}`);
  assert.equal(text, reference.text, `${step}: the answer of ${kind} differs`);
}

const ticketWrites: Record<string, Write> = {
  create: (board) =>
    live.post(`/api/boards/${board.id}/tickets`, {
      laneId: pick(board.laneIds),
      title: `New ${pick(WORDS)}`,
      priority: 1 + Math.floor(random() * 4),
    }),
  title: (_, ids) => live.patch(`/api/tickets/${pick(ids)}`, { title: `Retitled ${pick(WORDS)}` }),
  priority: (_, ids) =>
    live.patch(`/api/tickets/${pick(ids)}`, { priority: 1 + Math.floor(random() * 4) }),
  resolve: (_, ids) => live.patch(`/api/tickets/${pick(ids)}`, { isResolved: random() < 0.6 }),
  archive: (_, ids) => live.patch(`/api/tickets/${pick(ids)}`, { isArchived: random() < 0.4 }),
  lane: (board, ids) => live.patch(`/api/tickets/${pick(ids)}`, { laneId: pick(board.laneIds) }),
  parent: (_, ids) =>
    live.patch(`/api/tickets/${pick(ids)}`, { parentTicketId: random() < 0.3 ? null : pick(ids) }),
  blockers: (_, ids) => live.patch(`/api/tickets/${pick(ids)}`, { blockerIds: some(ids, 2) }),
  related: (_, ids) => live.patch(`/api/tickets/${pick(ids)}`, { relatedIds: some(ids, 2) }),
  tags: (board, ids) => live.patch(`/api/tickets/${pick(ids)}`, { tagIds: some(board.tagIds, 2) }),
  position: (board, ids) =>
    live.patch(`/api/tickets/${pick(ids)}/position`, {
      laneId: pick(board.laneIds),
      position: Math.floor(random() * 8),
    }),
  transition: (_, ids) =>
    live.patch(`/api/tickets/${pick(ids)}/transition`, {
      laneName: `lane ${1 + Math.floor(random() * 3)}`,
    }),
  delete: (_, ids) => live.delete(`/api/tickets/${pick(ids)}`),
  move: (_, ids) => {
    const target = boards[1] as BoardState;
    return live.post(`/api/tickets/${pick(ids)}/move`, {
      boardId: target.id,
      laneId: pick(target.laneIds),
    });
  },
  moveBack: async (board) => {
    const other = boards[1] as BoardState;
    const ids = await ticketIds(other);
    if (ids.length === 0) return;
    return live.post(`/api/tickets/${pick(ids)}/move`, {
      boardId: board.id,
      laneId: pick(board.laneIds),
    });
  },
  bulkComplete: (board, ids) =>
    live.post(`/api/boards/${board.id}/tickets/bulk-complete`, {
      ticketIds: some(ids, 4),
      isResolved: random() < 0.5,
    }),
  bulkArchive: (board, ids) =>
    live.post(`/api/boards/${board.id}/tickets/bulk-archive`, {
      ticketIds: some(ids, 3),
      isArchived: random() < 0.5,
    }),
  bulkTransition: (board, ids) =>
    live.post(`/api/boards/${board.id}/tickets/bulk-transition`, {
      ticketIds: some(ids, 4),
      laneName: `lane ${1 + Math.floor(random() * 3)}`,
    }),
  claim: (_, ids) =>
    live.post(`/api/tickets/${pick(ids)}/claim`, {
      actor: `agent ${Math.floor(random() * 3)}`,
      leaseSeconds: 60 + Math.floor(random() * 240),
    }),
  claimNext: async (board) => {
    // It claims the first ticket of the ready queue as a fresh computation lists it.
    const laneId = random() < 0.3 ? pick(board.laneIds) : undefined;
    const priority = random() < 0.3 ? 1 + Math.floor(random() * 4) : undefined;
    const queue = await fresh.get(
      `/api/boards/${board.id}/tickets?ready=true${laneId ? `&lane_id=${laneId}` : ""}`,
    );
    const expected = queue.body.tickets.find(
      (ticket: { priority: number }) => priority === undefined || ticket.priority === priority,
    );
    const answer = await live.post(`/api/boards/${board.id}/claim-next`, {
      actor: `agent ${Math.floor(random() * 3)}`,
      leaseSeconds: 60 + Math.floor(random() * 240),
      ...(laneId ? { laneId } : {}),
      ...(priority ? { priority } : {}),
    });
    assert.equal(answer.status, expected ? 200 : 204);
    if (expected) assert.equal(answer.body.id, expected.id);
    return answer;
  },
  release: (_, ids) =>
    live.post(`/api/tickets/${pick(ids)}/release`, { actor: `agent ${Math.floor(random() * 3)}` }),
  clock: async () => {
    // Claims end by the clock alone: no row changes.
    clock += Math.floor(random() * 200) * 1000;
  },
  // docs/api.md, "Asks": an open blocking ask holds its ticket; every change shows in openAsks.
  askOpen: (_, ids) =>
    live.post(`/api/tickets/${pick(ids)}/asks`, {
      actor: "agent 0",
      question: `Which ${pick(WORDS)}?`,
      blocking: random() < 0.7,
    }),
  askAnswer: async (board) => {
    const open = (await live.get(`/api/asks?boardId=${board.id}`)).body.asks;
    if (open.length === 0) return;
    return live.post(`/api/asks/${(pick(open) as { id: number }).id}/answer`, {
      by: "dev",
      text: pick(WORDS),
    });
  },
  askWithdraw: async (board) => {
    const open = (await live.get(`/api/asks?boardId=${board.id}`)).body.asks;
    if (open.length === 0) return;
    return live.post(`/api/asks/${(pick(open) as { id: number }).id}/withdraw`, {
      actor: "agent 0",
    });
  },
  // docs/api.md, "Not before": set around the test's clock (passing by it with `clock`), or cleared.
  notBefore: (_, ids) =>
    live.patch(`/api/tickets/${pick(ids)}`, {
      notBefore:
        random() < 0.3
          ? null
          : new Date(clock + Math.floor((random() - 0.3) * 300) * 1000).toISOString(),
    }),
  // docs/api.md, "Checklists": a body with task list items, and boxes set.
  tasks: (_, ids) =>
    live.patch(`/api/tickets/${pick(ids)}`, {
      bodyMarkdown: `- [ ] ${pick(WORDS)}\n- [x] ${pick(WORDS)}\n  - [ ] nested\n> - [ ] quoted`,
    }),
  check: (_, ids) =>
    live.patch(`/api/tickets/${pick(ids)}/checklist`, {
      index: Math.floor(random() * 4),
      checked: random() < 0.5,
    }),
  comment: (_, ids) =>
    live.post(`/api/tickets/${pick(ids)}/comments`, { bodyMarkdown: `A comment ${pick(WORDS)}` }),
  reference: (_, ids) =>
    live.put(`/api/tickets/${pick(ids)}/external-references/source`, {
      provider: "github",
      instanceUrl: "https://github.com",
      projectKey: "acme/app",
      issueKey: String(Math.floor(random() * 50)),
      displayRef: `acme/app#${Math.floor(random() * 50)}`,
      url: "https://github.com/acme/app/issues/1",
      title: `Upstream ${pick(WORDS)}`,
    }),
  tagRename: (board) =>
    live.patch(`/api/tags/${pick(board.tagIds)}`, { name: `tag ${pick(WORDS)} ${random()}` }),
  tagCreate: async (board) => {
    const answer = await live.post(`/api/boards/${board.id}/tags`, { name: `t${random()}` });
    if (answer.status === 201) board.tagIds.push(answer.body.id);
  },
  tagDelete: async (board) => {
    if (board.tagIds.length < 3) return;
    const id = pick(board.tagIds);
    board.tagIds = board.tagIds.filter((tagId) => tagId !== id);
    return live.delete(`/api/tags/${id}`);
  },
  // docs/api.md, "The trash": a restore from the trash (a ticket with its links, a tag with its
  // links, a comment) changes lists like any other write.
  restore: async (board) => {
    const items = (await live.get(`/api/trash?boardId=${board.id}`)).body.items;
    if (items.length === 0) return;
    const entry = pick(items) as { id: number; kind: string; objectId: number };
    const answer = await live.post(`/api/trash/${entry.id}/restore`);
    if (answer.status === 200 && entry.kind === "tag") board.tagIds.push(entry.objectId);
    return answer;
  },
  boardRename: (board) => live.patch(`/api/boards/${board.id}`, { name: `Main ${random()}` }),
  laneReorder: (board) => {
    board.laneIds = [...board.laneIds].sort(() => random() - 0.5);
    return live.post(`/api/boards/${board.id}/lanes/reorder`, { laneIds: board.laneIds });
  },
  reorder: async (board) => {
    const answer = await fresh.get(`/api/boards/${board.id}/tickets`);
    const items = answer.body.tickets
      .map((ticket: { id: number }) => ({ ticketId: ticket.id, laneId: pick(board.laneIds) }))
      .sort(() => random() - 0.5);
    const next = new Map<number, number>();
    return live.post(`/api/boards/${board.id}/tickets/reorder`, {
      items: items.map((item: { ticketId: number; laneId: number }) => {
        const position = next.get(item.laneId) ?? 0;
        next.set(item.laneId, position + 1);
        return { ...item, position };
      }),
    });
  },
};

test("every list form answers what a fresh computation gives, through writes of every kind", async () => {
  const main = boards[0] as BoardState;
  const other = boards[1] as BoardState;
  await compareLists(main, "start");
  const kinds = Object.keys(ticketWrites);
  for (let step = 0; step < STEPS; step++) {
    const kind = step < kinds.length ? (kinds[step] as string) : pick(kinds);
    const ids = await ticketIds(main);
    if (ids.length < 4) await ticketWrites.create?.(main, ids);
    const answer = await (ticketWrites[kind] as Write)(main, ids.length > 0 ? ids : [1]);
    await compareAnswer(kind, answer, `step ${step} (${kind}, seed ${SEED})`);
    await compareLists(main, `step ${step} (${kind}, seed ${SEED})`);
    await compareTickets(main, `step ${step} (${kind}, seed ${SEED})`);
    if (step % 6 === 5) {
      // Something deleted meanwhile comes back: a ticket (with its links), a tag or a comment.
      await ticketWrites.restore?.(main, ids);
      await compareLists(main, `step ${step} (a restore from the trash, seed ${SEED})`);
      await compareTickets(main, `step ${step} (a restore from the trash, seed ${SEED})`);
    }
    if (step % 10 === 0) await compareLists(other, `step ${step} (${kind}, other board)`);
  }
  // An import and a board deletion: the lists of a new board, then of a deleted one.
  const imported = await importBoard("Imported", 12);
  await compareLists(imported, "after an import");
  await ticketWrites.title?.(imported, await ticketIds(imported));
  await compareLists(imported, "after an import and a write");
  assert.equal((await live.delete(`/api/boards/${other.id}`)).status, 204);
  const gone = await live.get(`/api/boards/${other.id}/tickets`);
  assert.equal(gone.status, 404);
  const [entry] = (await live.get(`/api/trash?boardId=${other.id}`)).body.items.filter(
    (item: { kind: string }) => item.kind === "board",
  );
  assert.equal((await live.post(`/api/trash/${entry.id}/restore`)).status, 200);
  await compareLists(other, "after the board came back from the trash");
  await compareTickets(other, "after the board came back from the trash");
});

test("a title PATCH answers what GET and a fresh computation give, whatever changed around it", async () => {
  const board = await importBoard("Answers", 0);
  const [laneId] = board.laneIds;
  const create = async (title: string, extra: Record<string, unknown> = {}) =>
    (await live.post(`/api/boards/${board.id}/tickets`, { laneId, title, ...extra })).body.id;
  const blocker = await create("blocker");
  const related = await create("related");
  const ticket = await create("ticket", {
    blockerIds: [blocker],
    relatedIds: [related],
    tagIds: board.tagIds.slice(0, 2),
  });
  const child = await create("child", { parentTicketId: ticket });
  const blocked = await create("blocked", { blockerIds: [ticket] });
  const comment = (await live.post(`/api/tickets/${ticket}/comments`, { bodyMarkdown: "first" }))
    .body.id;
  let n = 0;
  // Each change reaches the ticket's answer through another row than its own.
  const aroundIt: Array<[string, () => Promise<unknown>]> = [
    [
      "a comment added",
      () => live.post(`/api/tickets/${ticket}/comments`, { bodyMarkdown: "2nd" }),
    ],
    ["a comment edited", () => live.patch(`/api/comments/${comment}`, { bodyMarkdown: "edited" })],
    // Not a part: the bodies' JSON is kept for the bodies it was written from.
    [
      "its body edited",
      () => live.patch(`/api/tickets/${ticket}`, { bodyMarkdown: 'A *"body"* \\ \u2028 é 😀' }),
    ],
    ["a tag renamed", () => live.patch(`/api/tags/${board.tagIds[0]}`, { name: "renamed" })],
    ["a blocker retitled", () => live.patch(`/api/tickets/${blocker}`, { title: "blocker 2" })],
    ["a related ticket's priority", () => live.patch(`/api/tickets/${related}`, { priority: 4 })],
    [
      "a blocked ticket resolved",
      () => live.patch(`/api/tickets/${blocked}`, { isResolved: true }),
    ],
    ["a child moved away", () => live.patch(`/api/tickets/${child}`, { parentTicketId: null })],
    ["a child again", () => live.patch(`/api/tickets/${child}`, { parentTicketId: ticket })],
    ["a reference", async () => ticketWrites.reference?.(board, [ticket])],
    ["a claim", () => live.post(`/api/tickets/${ticket}/claim`, { actor: "a", leaseSeconds: 90 })],
    ["the board renamed", () => live.patch(`/api/boards/${board.id}`, { name: "Answers 2" })],
    ["the blocker deleted", () => live.delete(`/api/tickets/${blocker}`)],
    ["a tag deleted", () => live.delete(`/api/tags/${board.tagIds[1]}`)],
    ["the comment deleted", () => live.delete(`/api/comments/${comment}`)],
    ["everything restored", async () => ticketWrites.restore?.(board, [ticket])],
  ];
  for (const [change, write] of aroundIt) {
    await live.get(`/api/tickets/${ticket}`);
    await write();
    // Titles with characters JSON escapes (the fresh fields are written apart from the kept).
    const title = n++ % 2 === 0 ? `ticket ${n}` : `ticket ${n} "quoted" \\ é 😀`;
    const patched = await live.patch(`/api/tickets/${ticket}`, { title });
    assert.equal(patched.status, 200, patched.text);
    const [mine, reference] = [
      await live.get(`/api/tickets/${ticket}`),
      await fresh.get(`/api/tickets/${ticket}`),
    ];
    assert.equal(patched.text, reference.text, `after ${change}: the PATCH answer differs`);
    assert.equal(mine.text, reference.text, `after ${change}: GET differs`);
  }
  // A PATCH that changes the ticket's own parts answers them changed (read in its transaction).
  await live.patch(`/api/tickets/${child}`, { parentTicketId: null });
  for (const body of [
    { tagIds: [board.tagIds[2]] },
    { blockerIds: [related] },
    { relatedIds: [] },
    { parentTicketId: related },
    { bodyMarkdown: "Body *again*" },
    { title: "with a body", bodyMarkdown: "" },
    { laneId: board.laneIds[1] },
    { title: "plain" },
    { title: 'then "quoted" \\ é 😀' },
    { title: "last", blockerIds: [] },
  ]) {
    await live.get(`/api/tickets/${ticket}`);
    const patched = await live.patch(`/api/tickets/${ticket}`, body);
    assert.equal(patched.status, 200, patched.text);
    const reference = await fresh.get(`/api/tickets/${ticket}`);
    assert.equal(patched.text, reference.text, `${JSON.stringify(body)}: the answer differs`);
  }
  // A transition answers its Ticket the same way (joined from the kept JSON).
  for (const body of [{ laneName: "lane 1" }, { laneName: "lane 1", isResolved: true }]) {
    await live.get(`/api/tickets/${ticket}`);
    const moved = await live.patch(`/api/tickets/${ticket}/transition`, body);
    assert.equal(moved.status, 200, moved.text);
    const reference = await fresh.get(`/api/tickets/${ticket}`);
    assert.equal(moved.text, reference.text, `${JSON.stringify(body)}: the answer differs`);
  }
});

test("claim, release, claim-next, position and move answer what a fresh GET gives", async () => {
  const board = await importBoard("Coordination", 0);
  const target = await importBoard("Elsewhere", 0);
  const [laneId, otherLaneId] = board.laneIds;
  const create = async (title: string, extra: Record<string, unknown> = {}) =>
    (await live.post(`/api/boards/${board.id}/tickets`, { laneId, title, ...extra })).body.id;
  const blocker = await create("blocker", { isResolved: true });
  const related = await create("related");
  // First of the ready queue (priority 4), with every kind of part its answer shows.
  const ticket = await create('ticket "quoted" é', {
    priority: 4,
    blockerIds: [blocker],
    relatedIds: [related],
    tagIds: board.tagIds.slice(0, 2),
    bodyMarkdown: 'A *"body"* \\ \u2028 é 😀',
  });
  // Resolved: an open child would keep its parent out of the ready queue.
  await create("child", { parentTicketId: ticket, isResolved: true });
  await live.post(`/api/tickets/${ticket}/comments`, { bodyMarkdown: "a comment" });
  await ticketWrites.reference?.(board, [ticket]);
  // Characters JSON escapes, in the claim's actor (written apart from the kept JSON).
  const actor = 'agent "one" \\ é 😀';
  const steps: Array<[string, () => Promise<{ status: number; text: string; body: any }>]> = [
    ["a claim", () => live.post(`/api/tickets/${ticket}/claim`, { actor, leaseSeconds: 90 })],
    ["a renewal", () => live.post(`/api/tickets/${ticket}/claim`, { actor, leaseSeconds: 300 })],
    ["a release", () => live.post(`/api/tickets/${ticket}/release`, { actor })],
    ["a release of nothing", () => live.post(`/api/tickets/${ticket}/release`, { actor })],
    ["a claim-next", () => live.post(`/api/boards/${board.id}/claim-next`, { actor })],
    // The next ready ticket was never read: its answer is serialized, not joined.
    [
      "a claim-next of an unread ticket",
      () => live.post(`/api/boards/${board.id}/claim-next`, { actor: "b" }),
    ],
    ["a position", () => live.patch(`/api/tickets/${ticket}/position`, { laneId, position: 0 })],
    [
      "a position where it is",
      () => live.patch(`/api/tickets/${ticket}/position`, { laneId, position: 0 }),
    ],
    [
      "a position in another lane",
      () => live.patch(`/api/tickets/${ticket}/position`, { laneId: otherLaneId }),
    ],
    [
      "a move within the board",
      () => live.post(`/api/tickets/${ticket}/move`, { boardId: board.id, laneId }),
    ],
    [
      "a move to another board",
      () =>
        live.post(`/api/tickets/${ticket}/move`, {
          boardId: target.id,
          laneId: target.laneIds[0],
        }),
    ],
    [
      "a move back",
      () => live.post(`/api/tickets/${ticket}/move`, { boardId: board.id, laneId: otherLaneId }),
    ],
  ];
  for (const [write, run] of steps) {
    // Read first: the ticket's parts and their JSON are kept, and the answer is joined from them.
    if (!write.includes("unread")) await live.get(`/api/tickets/${ticket}`);
    const answer = await run();
    assert.equal(answer.status, 200, `${write}: ${answer.text}`);
    const reference = await fresh.get(`/api/tickets/${answer.body.id}`);
    assert.equal(answer.text, reference.text, `${write}: the answer differs`);
    if (write === "a claim-next") assert.equal(answer.body.id, ticket);
    if (write === "a claim") assert.equal(answer.body.claim.actor, actor);
  }
});

test("the ready list follows a parent's blocker, which changes no row of the child", async () => {
  const board = await importBoard("Family", 0);
  const create = async (title: string, extra: Record<string, unknown> = {}) =>
    (
      await live.post(`/api/boards/${board.id}/tickets`, {
        laneId: board.laneIds[0],
        title,
        ...extra,
      })
    ).body.id;
  const blocker = await create("blocker");
  const parent = await create("parent", { blockerIds: [blocker] });
  // In a lane of its own: nothing in its lane changes when the parent's blocker is resolved.
  const child = await create("child", {
    parentTicketId: parent,
    isResolved: true,
    laneId: board.laneIds[1],
  });
  await live.patch(`/api/tickets/${child}`, { isResolved: false });
  await compareLists(board, "parent blocked");
  await live.patch(`/api/tickets/${blocker}`, { isResolved: true });
  await compareLists(board, "parent's blocker resolved");
  const ready = await live.get(`/api/boards/${board.id}/tickets?ready=true`);
  assert.ok(ready.body.tickets.some((ticket: { id: number }) => ticket.id === child));
});

test("a claim ending by the clock puts its ticket back in a ready list no other list showed", async () => {
  const board = await importBoard("Claims", 4);
  const ready = `/api/boards/${board.id}/tickets?ready=true`;
  const claimed = (await live.get(ready)).body.tickets[1].id;
  const claim = await live.post(`/api/tickets/${claimed}/claim`, {
    actor: "agent",
    leaseSeconds: 60,
  });
  assert.equal(claim.status, 200);
  // Only ready lists are read: no piece showing the claim is ever made.
  const during = await live.get(ready);
  assert.ok(!during.body.tickets.some((ticket: { id: number }) => ticket.id === claimed));
  clock += 61_000;
  const [mine, reference] = [await live.get(ready), await fresh.get(ready)];
  assert.equal(mine.text, reference.text, "the ready list after the claim ended differs");
  assert.ok(mine.body.tickets.some((ticket: { id: number }) => ticket.id === claimed));
});

test("a priority changed in place moves the ticket within the kept ready queue", async () => {
  const board = await importBoard("Priorities", 0);
  for (const priority of [1, 2, 3]) {
    await live.post(`/api/boards/${board.id}/tickets`, {
      laneId: board.laneIds[0],
      title: `p${priority}`,
      priority,
    });
  }
  const ready = `/api/boards/${board.id}/tickets?ready=true`;
  const [first] = (await live.get(ready)).body.tickets;
  await live.patch(`/api/tickets/${first.id}`, { priority: 1 });
  const [mine, reference] = [await live.get(ready), await fresh.get(ready)];
  assert.equal(mine.text, reference.text, "the ready list after a priority change differs");
});

test("a list too big to copy is streamed as it is kept: the same bytes, length and headers", async () => {
  // 800 tickets make a list of more than 256 KB (the route streams those).
  const board = await importBoard("Big", 800);
  const path = `/api/boards/${board.id}/tickets?archived=all`;
  const [mine, reference] = [await live.get(path), await fresh.get(path)];
  assert.ok(mine.text.length > 256 * 1024, `only ${mine.text.length} characters`);
  assert.equal(mine.text, reference.text, "the streamed list differs");
  assert.equal(mine.headers.get("content-length"), String(Buffer.byteLength(mine.text)));
  assert.equal(mine.headers.get("transfer-encoding"), null);
  assert.equal(mine.headers.get("content-type"), "application/json; charset=utf-8");
  const head = await live.request("HEAD", path);
  assert.equal(head.status, 200);
  assert.equal(head.headers.get("content-length"), mine.headers.get("content-length"));
  assert.equal(head.headers.get("etag"), mine.headers.get("etag"));
  const again = await live.request("GET", path, undefined, {
    "if-none-match": mine.headers.get("etag") as string,
  });
  assert.equal(again.status, 304);
});

test("a list above Node's pooled size is streamed too, with its length; a smaller one is copied", async () => {
  // From 4 KB on the route sends a list as its kept parts (a buffer of its own per answer would
  // outlive its request in the old generation); below it, one copy from Node's pool.
  const board = boards[0] as BoardState;
  for (const path of [
    `/api/boards/${board.id}/tickets?archived=all`,
    `/api/boards/${board.id}/tickets?q=%23999`,
  ]) {
    const [mine, reference] = [await live.get(path), await fresh.get(path)];
    assert.equal(mine.text, reference.text, `${path} differs`);
    assert.equal(mine.headers.get("content-length"), String(Buffer.byteLength(mine.text)));
    assert.equal(mine.headers.get("transfer-encoding"), null);
    const head = await live.request("HEAD", path);
    assert.equal(head.headers.get("content-length"), mine.headers.get("content-length"));
  }
  const big = await live.get(`/api/boards/${board.id}/tickets?archived=all`);
  assert.ok(big.text.length > 4096, `only ${big.text.length} characters`);
});

test("a ticket tracking a remote issue answers import, PATCH and refresh as a fresh computation", async () => {
  // Its answers are serialized in full, not joined from kept JSON: this checks they stay so.
  const board = await importBoard("Tracking", 3);
  const issue = { owner: "octo", repo: "live", number: 3, updatedAt: "2029-12-30T00:00:00Z" };
  gh.addIssue({ ...issue, title: 'Remote "quoted" \\ é 😀', body: "remote *body*" });
  const imported = await live.post(`/api/boards/${board.id}/remote-import`, {
    laneId: board.laneIds[0],
    provider: "github",
    instanceUrl: gh.instanceUrl,
    projectKey: "octo/live",
    issueKey: "3",
  });
  assert.equal(imported.status, 201, imported.text);
  const path = `/api/tickets/${imported.body.id}`;
  const sameAsFresh = async (answer: { text: string }, step: string) => {
    const [mine, reference] = [await live.get(path), await fresh.get(path)];
    assert.equal(answer.text, reference.text, `${step}: the answer differs`);
    assert.equal(mine.text, reference.text, `${step}: GET differs`);
  };
  await sameAsFresh(imported, "the import");
  for (const body of [
    { priority: 2 },
    { bodyMarkdown: "local *notes*" },
    { tagIds: [board.tagIds[0]] },
    { isResolved: true },
  ]) {
    await live.get(path); // the live server has read (and may keep) the ticket before the write
    const patched = await live.patch(path, body);
    assert.equal(patched.status, 200, patched.text);
    await sameAsFresh(patched, JSON.stringify(body));
  }
  const moved = await live.patch(`${path}/transition`, { laneName: "lane 3", isResolved: false });
  assert.equal(moved.status, 200, moved.text);
  await sameAsFresh(moved, "a transition");
  // The coordination writes answer the Ticket too.
  for (const [step, write] of [
    ["a position", () => live.patch(`${path}/position`, { laneId: board.laneIds[0], position: 0 })],
    ["a claim", () => live.post(`${path}/claim`, { actor: "agent", leaseSeconds: 90 })],
    ["a release", () => live.post(`${path}/release`, { actor: "agent" })],
  ] as const) {
    await live.get(path);
    const answer = await write();
    assert.equal(answer.status, 200, `${step}: ${answer.text}`);
    await sameAsFresh(answer, step);
  }
  // The remote issue changed: the refresh rewrites the title and the snapshot.
  gh.addIssue({
    ...issue,
    title: "Remote renamed",
    state: "closed",
    updatedAt: "2029-12-31T00:00:00Z",
  });
  const refreshed = await live.post(`${path}/remote-refresh`);
  assert.equal(refreshed.status, 200, refreshed.text);
  await sameAsFresh(refreshed, "the refresh");
  const patched = await live.patch(path, { priority: 4 });
  await sameAsFresh(patched, "a PATCH after the refresh");
  await compareLists(board, "with a ticket tracking a remote issue");
});
