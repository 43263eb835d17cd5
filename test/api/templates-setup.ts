import { ok } from "../helpers/factories.js";
import type { TestServer } from "../helpers/server.js";
import { boardWithLanes } from "../helpers/tickets.js";

// What the templates test files (templates-*.test.ts) share: boards to put templates on, the
// requests they repeat, and one template of two tickets.

export function templateRequests(api: TestServer) {
  let boardNumber = 0;
  const board = (lanes = ["todo", "doing", "done"]) =>
    boardWithLanes(api, `Templates ${++boardNumber}`, lanes);

  const createTemplate = (boardId: number, body: unknown) =>
    api.post(`/api/boards/${boardId}/templates`, body);

  const templatesOf = async (boardId: number) =>
    (await ok(api.get(`/api/boards/${boardId}/templates`))).templates as any[];

  const ticketsOf = async (boardId: number) =>
    (await ok(api.get(`/api/boards/${boardId}/tickets?archived=all`))).tickets as any[];

  return { board, createTemplate, templatesOf, ticketsOf };
}

export const release = {
  name: "Release",
  description: "Steps of a {{ignored}} release",
  tickets: [
    { key: "prep", title: "  Prepare {{version}}  ", bodyMarkdown: "For {{team}}", priority: 3 },
    { key: "ship", title: "Ship {{version}}", laneName: "doing", tagNames: ["release"] },
  ],
};
