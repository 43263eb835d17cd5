import assert from "node:assert/strict";
import { test } from "node:test";
import { cutTicketJson } from "../../src/kept-answers/ticket-json.js";
import { serializeTicket, setUp } from "./setup.js";

// The full Ticket answers kept by src/kept-answers (ticket-answers.ts, ticket-parts.ts,
// ticket-json.ts): a ticket read for the first time is serialized and nothing is kept; from its
// second read its parts are kept and the answer cut, and later ones are joined from the pieces; each must be the serializer's text of the Ticket read anew, after each
// kind of change around the ticket.

const { services, kept, keptTicket, freshTicket, advance, db } = setUp();

const shell = services.boards.create("Answers", ["todo", "doing"]);
const boardId = shell.board.id;
const [todo, doing] = shell.lanes.map((lane) => lane.id) as [number, number];
const tag = services.tags.create(boardId, { name: "tag" });
const create = (title: string, extra: Record<string, unknown> = {}) =>
  services.tickets.create(boardId, { laneId: todo, title, ...extra }).id;
const blocker = create("blocker");
const related = create("related");
const ticket = create('ticket "quoted" \\ é 😀', {
  bodyMarkdown: 'A *"body"* \\ \u2028 é 😀',
  blockerIds: [blocker],
  relatedIds: [related],
  tagIds: [tag.id],
});
const child = create("child", { parentTicketId: ticket });
const comment = services.comments.create(ticket, "first").id;

/** Two answers in a row: the first may be serialized and cut, the second is joined. */
function answersTwice(step: string): void {
  const fresh = freshTicket(ticket);
  assert.equal(keptTicket(ticket).toString(), fresh, `${step}: the first answer`);
  const second = keptTicket(ticket);
  assert.ok(Buffer.isBuffer(second), `${step}: the second answer is joined from kept pieces`);
  assert.equal(second.toString(), fresh, `${step}: the joined answer`);
}

test("a ticket's first answer is the serializer's text and keeps nothing", () => {
  assert.equal(keptTicket(ticket).toString(), freshTicket(ticket));
  assert.equal(kept.ticketBytes, 0, "a ticket read once has nothing kept");
});

test("from a ticket's second answer its parts are kept; the next is joined to the same bytes", () => {
  answersTwice("second read");
  assert.ok(kept.ticketBytes > 0);
});

const other = services.boards.create("Other", ["lane"]);
const OTHER = { boardId: other.board.id, laneId: other.lanes[0]?.id as number };
const REFERENCE = {
  provider: "github",
  instanceUrl: "https://github.com",
  projectKey: "acme/app",
  issueKey: "1",
  displayRef: "acme/app#1",
  url: "https://github.com/acme/app/issues/1",
  title: "Upstream",
};

const changes: Array<[string, () => unknown]> = [
  ["its title", () => services.tickets.update(ticket, { title: "plain" })],
  ["its title with escapes", () => services.tickets.update(ticket, { title: 'a "b" \\ é 😀' })],
  ["its priority and lane", () => services.tickets.update(ticket, { priority: 4, laneId: doing })],
  ["its body", () => services.tickets.update(ticket, { bodyMarkdown: "- [ ] task\n- [x] done" })],
  ["a checklist box", () => services.tickets.checkItem(ticket, { index: 0, checked: true })],
  ["a comment added", () => services.comments.create(ticket, "second")],
  ["a comment edited", () => services.comments.update(comment, "edited")],
  ["its tag renamed", () => services.tags.update(tag.id, { name: "renamed" })],
  ["a blocker retitled", () => services.tickets.update(blocker, { title: "blocker 2" })],
  ["a related ticket's priority", () => services.tickets.update(related, { priority: 1 })],
  ["a child moved away", () => services.tickets.update(child, { parentTicketId: null })],
  ["a claim", () => services.ticketClaims.claim(ticket, { actor: 'a "b"', leaseSeconds: 60 })],
  ["the claim ended by the clock", () => advance(61)],
  ["a notBefore", () => services.tickets.update(ticket, { notBefore: "2031-01-01T00:00:00Z" })],
  ["an ask", () => services.asks.open(ticket, { actor: "a", question: "?", blocking: true })],
  ["the board renamed", () => services.boards.rename(boardId, "Answers 2")],
  ["the blocker deleted", () => services.tickets.remove(blocker)],
  ["a reference", () => services.externalReferences.set(ticket, "source", REFERENCE)],
  ["a move to another board", () => services.ticketMoves.move(ticket, OTHER)],
];

for (const [change, write] of changes) {
  test(`after ${change}, the answer is the serializer's text of the Ticket read anew`, () => {
    write();
    answersTwice(change);
  });
}

test("the answer a write leaves (its row) joins to the same bytes as a read", () => {
  const written = services.tickets.update(ticket, { title: "written" });
  const answer = kept.ticketJson(ticket, serializeTicket, written);
  assert.equal(answer.toString(), freshTicket(ticket));
});

test("parts a unit of work changed are not kept; a rollback leaves the kept answer as it was", () => {
  answersTwice("before the unit");
  // A unit of work as SQLite sees it (the triggers note the changed parts; no commit runs):
  // the answer inside it shows its comment, and nothing of it is kept.
  const { stores } = services.answerSources;
  assert.throws(
    () =>
      db.transaction(() => {
        stores.comments.insert(
          ticket,
          "rolled back",
          "<p>rolled back</p>\n",
          "2030-01-02T00:00:00Z",
        );
        assert.ok(keptTicket(ticket).toString().includes("rolled back"), "the unit's answer");
        assert.ok(keptTicket(ticket).toString().includes("rolled back"), "asked again");
        throw new Error("roll back");
      })(),
    /roll back/,
  );
  answersTwice("after the rollback");
  assert.ok(!freshTicket(ticket).includes("rolled back"));
});

test("JSON whose fields are written otherwise than ticket-json.ts writes them is never cut", () => {
  const full = serializeTicket(services.tickets.get(ticket));
  const row = services.answerSources.views.written(ticket).record;
  const fresh = { row, hasChildren: false, claim: null };
  assert.ok(cutTicketJson(full, fresh), "the serializer's own text is cut");
  // The same text with the title escaped another way (as another serializer might write it).
  const escaped = full.replace(/"title":"written"/, '"title":"writte\\u006e"');
  assert.notEqual(escaped, full);
  assert.equal(cutTicketJson(escaped, fresh), undefined);
});
