import assert from "node:assert/strict";
import { after, test } from "node:test";
import { useClock } from "../../src/domain/clock.js";
import { liveLists } from "./live-lists-setup.js";
import { ticketWrites as writesOf } from "./live-lists-writes.js";

// A full Ticket answered by a write (joined from kept JSON: src/kept-answers/ticket-json.ts) is
// what a GET of the reference server answers right after it (live-lists-setup.ts): after changes
// around the ticket, after coordination writes, and for a ticket tracking a remote issue.

const lists = await liveLists();
const { compareLists, fresh, gh, importBoard, live } = lists;
const clock = { now: Date.parse("2030-01-01T00:00:00.000Z") };
after(useClock(() => clock.now));
// Only the writes `reference` and `restore` are used here: no board for tickets to move to.
const ticketWrites = writesOf(lists, [], clock);

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
