import type { TestServer } from "../helpers/server.js";

/** A demo board like a person's: a few lanes, tags, priorities, a parent, a blocker, a body. */
export async function seedDemoBoard(api: TestServer, name = "Product") {
  const created = (
    await api.post("/api/boards", { name, laneNames: ["Backlog", "Doing", "Review", "Done"] })
  ).body;
  const boardId = created.board.id as number;
  const lanes = created.lanes as { id: number; name: string }[];
  const lane = (index: number) => (lanes[index] as { id: number }).id;
  const tag = async (tagName: string, color: string) =>
    (await api.post(`/api/boards/${boardId}/tags`, { name: tagName, color })).body as {
      id: number;
    };
  const bug = await tag("bug", "#dc2626");
  const ui = await tag("ui", "#2563eb");
  const api_ = await tag("api", "#059669");
  const perf = await tag("performance-and-scalability", "#d97706");
  const ticket = async (fields: Record<string, unknown>) =>
    (await api.post(`/api/boards/${boardId}/tickets`, fields)).body as { id: number };
  const epic = await ticket({
    laneId: lane(0),
    title: "Keyboard-first board navigation",
    priority: 3,
    tagIds: [ui.id],
  });
  await ticket({
    laneId: lane(0),
    title: "Arrow keys move focus between cards",
    parentTicketId: epic.id,
    tagIds: [ui.id],
  });
  const blocker = await ticket({
    laneId: lane(1),
    title: "Stream sends changed ticket ids",
    priority: 4,
    tagIds: [api_.id],
  });
  await ticket({
    laneId: lane(0),
    title: "Patch cards in place from stream messages",
    blockerIds: [blocker.id],
    tagIds: [ui.id, api_.id],
  });
  await ticket({ laneId: lane(0), title: "Export a board as JSON", priority: 1 });
  await ticket({
    laneId: lane(1),
    title: "Virtualize long columns on 5,000-ticket boards",
    priority: 3,
    tagIds: [perf.id],
    bodyMarkdown:
      "## Goal\n\nKeep **scrolling smooth** with thousands of cards.\n\n- [x] measure\n- [ ] window the lanes\n\n```ts\nconst visible = cards.slice(start, end);\n```",
  });
  await ticket({
    laneId: lane(1),
    title: "Crash when a lane name is empty",
    priority: 4,
    tagIds: [bug.id],
  });
  await ticket({
    laneId: lane(2),
    title: "Dark mode contrast of tag chips",
    tagIds: [ui.id, bug.id],
  });
  await ticket({
    laneId: lane(2),
    title: "Document the ready queue for agents",
    priority: 2,
    tagIds: [api_.id],
  });
  const done = await ticket({
    laneId: lane(3),
    title: "SQLite storage with migrations",
    tagIds: [api_.id],
  });
  await api.patch(`/api/tickets/${done.id}`, { isResolved: true });
  const done2 = await ticket({ laneId: lane(3), title: "Board export and import" });
  await api.patch(`/api/tickets/${done2.id}`, { isResolved: true });
  await ticket({ laneId: lane(3), title: "Fastify routes with TypeBox schemas", priority: 2 });
  return { boardId, lanes, tags: { bug, ui, api: api_, perf }, epicId: epic.id };
}
