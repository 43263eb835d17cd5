import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  LEASE_DEFAULT_SECONDS,
  LEASE_MAX_SECONDS,
  LEASE_MIN_SECONDS,
  OPTIONS_MAX,
  PRIORITY_MAX,
  PRIORITY_MIN,
  TITLE_MAX,
  WIP_LIMIT_MAX,
} from "../../src/model/limits.js";
import { tack } from "../cli/tack-process.js";
import { assertError, createBoard, createTicket } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";
import { connectMcp } from "../mcp/mcp-connection.js";

// The limits of docs/api.md ("Limits" and the sections of each resource) are written once, in
// src/model/limits.ts. Each is checked here where a client meets it: the server accepts the
// bound and refuses one past it, the OpenAPI document states it, the CLI's help quotes it and
// the MCP tools declare it. A number written anywhere in place of the constant disagrees with
// the others as soon as the limit changes, and one of these fails.

const api = await startTestServer();
const openapi = JSON.parse((await api.get("/api/openapi.json")).text);
const { board, lanes } = await createBoard(api, "Limits");
const laneId = (lanes[0] as { id: number }).id;

function requestBody(path: string, method = "post") {
  return openapi.paths[path][method].requestBody.content["application/json"].schema;
}

describe("limits agree at every place a client meets them", () => {
  test("a lease: the server's bounds and default, the OpenAPI document, the CLI, the MCP tools", async () => {
    const claim = async (leaseSeconds?: number) => {
      const { id } = await createTicket(api, board.id, { laneId, title: "Leased" });
      return api.post(`/api/tickets/${id}/claim`, { actor: "a", leaseSeconds });
    };
    assertError(await claim(LEASE_MIN_SECONDS - 1), 400, /leaseSeconds/);
    assertError(await claim(LEASE_MAX_SECONDS + 1), 400, /leaseSeconds/);
    for (const seconds of [LEASE_MIN_SECONDS, LEASE_MAX_SECONDS, undefined]) {
      const response = await claim(seconds);
      assert.equal(response.status, 200, response.text);
      const { claimedAt, expiresAt } = response.body.claim;
      const lease = (Date.parse(expiresAt) - Date.parse(claimedAt)) / 1000;
      assert.equal(lease, seconds ?? LEASE_DEFAULT_SECONDS);
    }

    const documented = requestBody("/api/tickets/{ticketId}/claim").properties.leaseSeconds;
    assert.equal(documented.minimum, LEASE_MIN_SECONDS);
    assert.equal(documented.maximum, LEASE_MAX_SECONDS);
    assert.match(documented.description, new RegExp(`default ${LEASE_DEFAULT_SECONDS}\\b`));

    const help = await tack(api.url, ["claim", "--help"]);
    assert.match(
      help.stdout,
      new RegExp(
        `${LEASE_MIN_SECONDS}-${LEASE_MAX_SECONDS} \\(server default ${LEASE_DEFAULT_SECONDS}\\)`,
      ),
    );
    const tooLong = await tack(api.url, ["claim", "1", "--lease", `${LEASE_MAX_SECONDS + 1}`]);
    assert.notEqual(tooLong.code, 0);
    assert.match(tooLong.stderr, new RegExp(`from ${LEASE_MIN_SECONDS} to ${LEASE_MAX_SECONDS}`));

    const mcp = await connectMcp(api.url, "agent");
    try {
      const { tools } = await mcp.listTools();
      const claimTool = tools.find((tool) => tool.name === "claim");
      assert.ok(claimTool, "the claim tool");
      const lease = (claimTool.inputSchema.properties as Record<string, any>).leaseSeconds;
      assert.equal(lease.minimum, LEASE_MIN_SECONDS);
      assert.equal(lease.maximum, LEASE_MAX_SECONDS);
      assert.match(lease.description, new RegExp(`default ${LEASE_DEFAULT_SECONDS}\\b`));
    } finally {
      await mcp.close();
    }
  });

  test("a priority: the server's range, the OpenAPI enum, the CLI's argument", async () => {
    for (const priority of [PRIORITY_MIN, PRIORITY_MAX]) {
      await createTicket(api, board.id, { laneId, title: `Priority ${priority}`, priority });
    }
    for (const priority of [PRIORITY_MIN - 1, PRIORITY_MAX + 1]) {
      assertError(
        await api.post(`/api/boards/${board.id}/tickets`, { laneId, title: "No", priority }),
        400,
        /priority/,
      );
    }
    const range = Array.from(
      { length: PRIORITY_MAX - PRIORITY_MIN + 1 },
      (_, index) => PRIORITY_MIN + index,
    );
    assert.deepEqual(openapi.components.schemas.Ticket.properties.priority.enum, range);
    const help = await tack(api.url, ["ready", "--help"]);
    assert.match(help.stdout, new RegExp(`--priority <${PRIORITY_MIN}-${PRIORITY_MAX}>`));
  });

  test("a title: the bound is accepted, one past it refused, and the document says so", async () => {
    await createTicket(api, board.id, { laneId, title: "t".repeat(TITLE_MAX) });
    assertError(
      await api.post(`/api/boards/${board.id}/tickets`, {
        laneId,
        title: "t".repeat(TITLE_MAX + 1),
      }),
      400,
      `title must be at most ${TITLE_MAX} characters`,
    );
    const title = requestBody("/api/tickets/{ticketId}", "patch").properties.title;
    assert.match(title.description, new RegExp(`^1-${TITLE_MAX} characters`));
  });

  test("a lane's WIP limit and an ask's options: the server's bounds and the document's", async () => {
    const lanePath = `/api/lanes/${laneId}`;
    assert.equal((await api.patch(lanePath, { wipLimit: WIP_LIMIT_MAX })).status, 200);
    assertError(await api.patch(lanePath, { wipLimit: WIP_LIMIT_MAX + 1 }), 400, /wipLimit/);
    assert.equal(openapi.components.schemas.Lane.properties.wipLimit.maximum, WIP_LIMIT_MAX);

    const { id } = await createTicket(api, board.id, { laneId, title: "Asked" });
    const ask = (count: number) =>
      api.post(`/api/tickets/${id}/asks`, {
        actor: "a",
        question: "Which?",
        options: Array.from({ length: count }, (_, index) => `option ${index}`),
      });
    assert.equal((await ask(OPTIONS_MAX)).status, 201);
    assertError(await ask(OPTIONS_MAX + 1), 400, /options/);
    const options = requestBody("/api/tickets/{ticketId}/asks").properties.options;
    assert.equal(options.maxItems, OPTIONS_MAX);
  });
});
