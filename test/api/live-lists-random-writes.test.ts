import assert from "node:assert/strict";
import { after, test } from "node:test";
import { useClock } from "../../src/domain/clock.js";
import { type BoardState, liveLists, SEED } from "./live-lists-setup.js";
import { type Write, ticketWrites as writesOf } from "./live-lists-writes.js";

// Random writes of every kind are interleaved with reads of every list form and of every ticket,
// and each answer of the live server is compared with the reference server's
// (live-lists-setup.ts).

const lists = await liveLists();
const { compareLists, compareTickets, fresh, importBoard, live, pick, ticketIds } = lists;
const clock = { now: Date.parse("2030-01-01T00:00:00.000Z") };
after(useClock(() => clock.now));

/**
 * The first steps write each kind once, in order, then kinds are picked at random. `npm test`
 * runs each kind once and a few more: enough to catch each invalidation the memory depends on
 * (breaking the re-read of changed tickets or the lane texts' invalidation fails at step 0, the
 * claim expiry at step 21, the clock's first turn; the children re-check fails "the ready list
 * follows a parent's blocker" in live-lists-ready-and-streamed.test.ts).
 * `npm run test:soak` runs many more random steps (LIVE_LISTS_STEPS, LIVE_LISTS_SEED).
 */
const STEPS = Number(process.env.LIVE_LISTS_STEPS ?? 36);

const boards = [await importBoard("Main", 36), await importBoard("Other", 6)];
const ticketWrites = writesOf(lists, boards, clock);

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
