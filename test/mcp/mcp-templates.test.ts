import assert from "node:assert/strict";
import { test } from "node:test";
import { startTestServer } from "../helpers/server.js";
import { call, connectMcp, ok } from "./mcp-connection.js";

// instantiate_template (the opt-in `templates` toolset): a board's template made into tickets in
// one step, by id or name, with its variables filled in.

const api = await startTestServer();
const { board } = (await api.post("/api/boards", { name: "Templates" })).body;
const template = (
  await api.post(`/api/boards/${board.id}/templates`, {
    name: "Release",
    description: "Everything a release needs",
    tickets: [
      { key: "release", title: "Release {{version}}" },
      { key: "notes", title: "Notes for {{version}}", parentKey: "release", laneName: "doing" },
      { key: "tag", title: "Tag v{{version}}", parentKey: "release", blockerKeys: ["notes"] },
    ],
  })
).body;

test("instantiate_template lists the board's templates, then makes one's tickets by name with the values", async () => {
  const client = await connectMcp(api.url, "agent", { toolsets: ["templates"] });
  const listed = await ok(client, "instantiate_template", { boardId: board.id });
  assert.deepEqual(listed.templates, [
    {
      id: template.id,
      name: "Release",
      description: "Everything a release needs",
      variables: ["version"],
      tickets: 3,
    },
  ]);

  const made = await call(client, "instantiate_template", {
    boardId: board.id,
    template: "release",
    values: { version: "1.4" },
    lane: "todo",
  });
  assert.equal(made.isError, false, made.text);
  assert.equal(made.data.templateId, template.id);
  assert.deepEqual(
    made.data.tickets.map((one: { key: string; title: string }) => [one.key, one.title]),
    [
      ["release", "Release 1.4"],
      ["notes", "Notes for 1.4"],
      ["tag", "Tag v1.4"],
    ],
  );
  const [release, notes, tag] = made.data.tickets.map((one: { id: number }) => one.id);
  assert.match(
    made.text,
    new RegExp(`Made 3 tickets from "Release": #${release}, #${notes}, #${tag}`),
  );
  const tagTicket = (await api.get(`/api/tickets/${tag}`)).body;
  assert.equal(tagTicket.parentTicketId, release);
  assert.deepEqual(tagTicket.blockerIds, [notes]);
  const lanes = (await api.get(`/api/boards/${board.id}/lanes`)).body.lanes;
  const laneOf = async (id: number) => (await api.get(`/api/tickets/${id}`)).body.laneId;
  assert.equal(await laneOf(release), lanes.find((lane: any) => lane.name === "todo").id);
  assert.equal(await laneOf(notes), lanes.find((lane: any) => lane.name === "doing").id);

  const missing = await call(client, "instantiate_template", {
    boardId: board.id,
    template: template.id,
  });
  assert.equal(missing.isError, true);
  assert.match(missing.data.error.message, /version/);
  const unknown = await call(client, "instantiate_template", {
    boardId: board.id,
    template: "Nope",
  });
  assert.equal(unknown.data.error.code, "not_found");
  assert.match(unknown.data.error.hint, new RegExp(`${template.id} Release`));
  await client.close();
});
