import { createTag, ok } from "../helpers/factories.js";
import type { TestServer } from "../helpers/server.js";
import { boardWithLanes, newTicket, patchTicket } from "../helpers/tickets.js";

// What the board export and import test files (board-export*, board-import*) share.

export function boardDocuments(api: TestServer) {
  const boardCount = async () => (await api.get("/api/boards")).body.boards.length;

  /** A board that uses every exportable feature, built through the API. */
  async function richBoard() {
    const board = await boardWithLanes(api, "Rich board", ["backlog", "doing", "done"]);
    const [backlog, doing, done] = board.laneIds as [number, number, number];
    // Lane order differs from lane id order.
    await ok(
      api.post(`/api/boards/${board.boardId}/lanes/reorder`, { laneIds: [doing, backlog, done] }),
    );
    const bug = await createTag(api, board.boardId, "Bug", "#f00");
    const idea = await createTag(api, board.boardId, "idea", "");
    const ops = await createTag(api, board.boardId, "ops", "#12abEF");

    const parent = await newTicket(api, board.boardId, backlog, "Parent epic", {
      bodyMarkdown: "# Plan\n\n- [ ] one\n- [x] two\n\n| a | b |\n|--:|:-:|\n| 1 | 2 |",
      priority: 4,
      tagIds: [bug.id, ops.id],
    });
    const child = await newTicket(api, board.boardId, backlog, "Child task", {
      parentTicketId: parent.id,
      priority: 1,
    });
    const blocker = await newTicket(api, board.boardId, doing, "Blocker", { isResolved: true });
    const blocked = await newTicket(api, board.boardId, doing, "Blocked", {
      blockerIds: [blocker.id, child.id],
      relatedIds: [parent.id],
      priority: 3,
    });
    const archived = await newTicket(api, board.boardId, done, "Archived one", {
      bodyMarkdown: "old **stuff**",
      tagIds: [idea.id],
    });
    await patchTicket(api, archived.id, { isArchived: true });
    const last = await newTicket(api, board.boardId, done, "Unicode ✓ título", {
      relatedIds: [blocked.id],
    });
    // Put `last` before the archived ticket's old slot and `child` first in its lane.
    await ok(api.patch(`/api/tickets/${child.id}/position`, { laneId: backlog, position: 0 }));
    await ok(api.patch(`/api/tickets/${last.id}/position`, { laneId: done, position: 0 }));

    const first = await ok(
      api.post(`/api/tickets/${parent.id}/comments`, { bodyMarkdown: "first" }),
      201,
    );
    const second = await ok(
      api.post(`/api/tickets/${parent.id}/comments`, {
        bodyMarkdown: "see [docs](https://example.com)",
      }),
      201,
    );
    await ok(api.patch(`/api/comments/${first.id}`, { bodyMarkdown: "first, edited" }));
    await ok(
      api.post(`/api/tickets/${archived.id}/comments`, { bodyMarkdown: "on an archived ticket" }),
      201,
    );

    await ok(
      api.post(`/api/tickets/${parent.id}/tags/${bug.id}`, {
        reason: "crashes on start",
        details: { source: "ci", runs: [1, 2] },
        reasonCommentId: second.id,
      }),
    );
    await ok(api.post(`/api/tickets/${blocked.id}/tags/${idea.id}`, { reason: "maybe later" }));

    await ok(
      api.put(`/api/tickets/${parent.id}/external-references/source`, {
        provider: "github",
        instanceUrl: "https://github.com",
        projectKey: "acme/app",
        issueKey: "12",
        displayRef: "acme/app#12",
        url: "https://github.com/acme/app/issues/12",
        title: "Crash",
      }),
    );
    await ok(
      api.put(`/api/tickets/${parent.id}/external-references/doc`, {
        provider: "wiki",
        instanceUrl: "",
        projectKey: "",
        issueKey: "",
        displayRef: "Design",
        url: "https://wiki.example.com/design",
        resourceType: "page",
      }),
    );

    await ok(
      api.post(`/api/tickets/${blocked.id}/events`, {
        source: "agent",
        kind: "review",
        title: "Reviewed",
        summary: "2 findings",
        severity: "warning",
        icon: "🔎",
        data: { findings: [{ line: 3, text: "nit" }] },
      }),
      201,
    );
    await ok(
      api.post(`/api/tickets/${blocked.id}/events`, {
        source: "ci",
        kind: "build",
        title: "Green",
      }),
      201,
    );
    for (const name of ["release", "Bug triage"]) {
      await ok(
        api.post(`/api/boards/${board.boardId}/templates`, {
          name,
          description: "How we **{{do}}** it",
          tickets: [
            { key: "check", title: "Check {{version}}", tagNames: ["Bug", "new tag"] },
            {
              key: "ship",
              title: "Ship",
              bodyMarkdown: "Body of {{version}}",
              laneName: "done",
              priority: 4,
              parentKey: "check",
              blockerKeys: ["check"],
            },
          ],
        }),
        201,
      );
    }
    return board.boardId;
  }

  return { boardCount, richBoard };
}

/**
 * The export with every id replaced by a position, so two exports of equal boards compare equal
 * whatever ids the database gave: lanes and tickets by index, tags by name, comments by index.
 */
export function canonical(document: any) {
  const laneIndex = new Map(document.lanes.map((lane: any, index: number) => [lane.id, index]));
  const tagName = new Map(document.tags.map((tag: any) => [tag.id, tag.name]));
  const ticketIndex = new Map(
    document.tickets.map((ticket: any, index: number) => [ticket.id, index]),
  );
  const ticketRef = (id: number | null) => (id === null ? null : ticketIndex.get(id));
  return {
    format: document.format,
    version: document.version,
    board: { name: document.board.name },
    lanes: document.lanes.map((lane: any) => ({ name: lane.name, position: lane.position })),
    tags: document.tags.map((tag: any) => ({ name: tag.name, color: tag.color })),
    // Templates carry no ids: they compare as they are, times included.
    templates: document.templates,
    tickets: document.tickets.map((ticket: any) => {
      const commentIndex = new Map(
        ticket.comments.map((comment: any, index: number) => [comment.id, index]),
      );
      const {
        id,
        boardId,
        laneId,
        parentTicketId,
        tags,
        comments,
        blockerIds,
        relatedIds,
        externalReferences,
        tagReasons,
        events,
        ...own
      } = ticket;
      return {
        ...own,
        lane: laneIndex.get(laneId),
        parent: ticketRef(parentTicketId),
        tags: tags.map((tag: any) => ({ name: tag.name, color: tag.color })),
        comments: comments.map(({ id: _id, ticketId: _ticket, ...comment }: any) => comment),
        blockers: blockerIds.map(ticketRef).sort(),
        related: relatedIds.map(ticketRef).sort(),
        externalReferences: externalReferences.map(
          ({ id: _id, ticketId: _ticket, ...reference }: any) => reference,
        ),
        tagReasons: tagReasons.map(({ tagId, reasonCommentId, ...reason }: any) => ({
          ...reason,
          tag: tagName.get(tagId),
          reasonComment: reasonCommentId === null ? null : commentIndex.get(reasonCommentId),
        })),
        events: events.map(({ id: _id, ticketId: _ticket, ...event }: any) => event),
      };
    }),
  };
}
