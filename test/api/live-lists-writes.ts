import assert from "node:assert/strict";
import { type BoardState, type liveLists, WORDS } from "./live-lists-setup.js";

export type Write = (board: BoardState, ids: number[]) => Promise<unknown>;

/**
 * A write of every kind, to a board of the live server, on tickets picked among `ids`: the
 * random test writes each kind (live-lists-random-writes.test.ts), others a few. `boards[1]` is
 * where tickets move to and back from; `clock.now` is the time the server reads.
 */
export function ticketWrites(
  { fresh, live, pick, random, some, ticketIds }: Awaited<ReturnType<typeof liveLists>>,
  boards: BoardState[],
  clock: { now: number },
): Record<string, Write> {
  return {
    create: (board) =>
      live.post(`/api/boards/${board.id}/tickets`, {
        laneId: pick(board.laneIds),
        title: `New ${pick(WORDS)}`,
        priority: 1 + Math.floor(random() * 4),
      }),
    title: (_, ids) =>
      live.patch(`/api/tickets/${pick(ids)}`, { title: `Retitled ${pick(WORDS)}` }),
    priority: (_, ids) =>
      live.patch(`/api/tickets/${pick(ids)}`, { priority: 1 + Math.floor(random() * 4) }),
    resolve: (_, ids) => live.patch(`/api/tickets/${pick(ids)}`, { isResolved: random() < 0.6 }),
    archive: (_, ids) => live.patch(`/api/tickets/${pick(ids)}`, { isArchived: random() < 0.4 }),
    lane: (board, ids) => live.patch(`/api/tickets/${pick(ids)}`, { laneId: pick(board.laneIds) }),
    parent: (_, ids) =>
      live.patch(`/api/tickets/${pick(ids)}`, {
        parentTicketId: random() < 0.3 ? null : pick(ids),
      }),
    blockers: (_, ids) => live.patch(`/api/tickets/${pick(ids)}`, { blockerIds: some(ids, 2) }),
    related: (_, ids) => live.patch(`/api/tickets/${pick(ids)}`, { relatedIds: some(ids, 2) }),
    tags: (board, ids) =>
      live.patch(`/api/tickets/${pick(ids)}`, { tagIds: some(board.tagIds, 2) }),
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
      live.post(`/api/tickets/${pick(ids)}/release`, {
        actor: `agent ${Math.floor(random() * 3)}`,
      }),
    clock: async () => {
      // Claims end by the clock alone: no row changes.
      clock.now += Math.floor(random() * 200) * 1000;
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
            : new Date(clock.now + Math.floor((random() - 0.3) * 300) * 1000).toISOString(),
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
}
