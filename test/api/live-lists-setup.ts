import assert from "node:assert/strict";
import { after } from "node:test";
import { startFakeGitHub } from "../fakes/github.js";
import { seededRandom } from "../helpers/random.js";
import { startTestServer } from "../helpers/server.js";
import { credentialsEnv, TOKENS } from "./remote-fixtures.js";

// The answers kept in memory (src/kept-answers: board lists, full tickets' parts and JSON)
// answer byte for byte what a list or ticket built from the database gives. One server writes and
// answers from what it keeps; a second one on the same database file, in the reference mode,
// reads and serializes every answer anew. The live-lists-*.test.ts files write to the first and
// compare each answer of the first with the second's; test/kept-answers/ tests the module itself,
// one kind of change at a time.

export const SEED = Number(process.env.LIVE_LISTS_SEED ?? 20);

export const WORDS = ["alpha", "boiler", "comet", "delta", "ember"];

export interface BoardState {
  id: number;
  laneIds: number[];
  tagIds: number[];
}

/**
 * The two servers, a fake GitHub the first one can import from, and what compares their answers.
 * Lists are asked for with words and lanes picked by a generator seeded with SEED.
 */
export async function liveLists() {
  const gh = await startFakeGitHub({ token: TOKENS.github });
  after(() => gh.close());
  // Runs of two tickets: the lane and ready texts of these small boards then span many runs, so
  // each run's invalidation is tested (a big board keeps runs of 64).
  const live = await startTestServer({
    env: credentialsEnv({ [`github:${gh.instanceUrl}`]: TOKENS.github }),
    answers: { runLength: 2 },
  });
  const fresh = await startTestServer({ dbFile: live.dbFile, answers: { reference: true } });
  const random = seededRandom(SEED);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const some = <T>(items: readonly T[], most: number): T[] => [
    ...new Set(Array.from({ length: Math.floor(random() * (most + 1)) }, () => pick(items))),
  ];

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

  async function importBoard(name: string, tickets: number): Promise<BoardState> {
    const answer = await live.post("/api/boards/import", importDocument(name, tickets));
    assert.equal(answer.status, 201, answer.text);
    return {
      id: answer.body.board.id,
      laneIds: answer.body.lanes.map((lane: { id: number }) => lane.id),
      tagIds: answer.body.tags.map((tag: { id: number }) => tag.id),
    };
  }

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

  return {
    compareLists,
    compareTickets,
    fresh,
    gh,
    importBoard,
    live,
    pick,
    random,
    some,
    ticketIds,
  };
}
