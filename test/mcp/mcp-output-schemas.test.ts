import assert from "node:assert/strict";
import { test } from "node:test";
import { Ajv } from "ajv";
import { startTestServer } from "../helpers/server.js";
import { call, connectMcp } from "./mcp-connection.js";

// Every tool lists an outputSchema, and what it answers validates against it: successes and
// failures alike (clients on the v1 SDK check an error's structuredContent too). A tool added
// without a call below fails the last assertion.

const api = await startTestServer();
await api.post("/api/boards", { name: "Schema board" });

test("every tool's structuredContent validates against its listed outputSchema (ajv)", async () => {
  const client = await connectMcp(api.url, "schema-agent", {
    toolsets: ["remote", "admin", "templates"],
  });
  const { tools } = await client.listTools();
  const ajv = new Ajv({ allErrors: true });
  const validators = new Map(
    tools.map((tool) => {
      assert.equal(tool.outputSchema?.type, "object", `${tool.name} lists an object outputSchema`);
      return [tool.name, ajv.compile(tool.outputSchema as object)];
    }),
  );
  const ticketSchema = validators.get("get_ticket");
  assert.equal(ticketSchema?.({ id: "seven" }), false, "the schemas do refuse a wrong shape");
  const succeeded = new Set<string>();
  const check = async (
    name: string,
    args: Record<string, unknown>,
    expectError = false,
  ): Promise<any> => {
    const result = await call(client, name, args);
    assert.equal(result.isError, expectError, `${name}: ${result.text}`);
    const validate = validators.get(name);
    assert.ok(validate, `${name} is listed`);
    assert.ok(
      validate(result.data),
      `${name} ${JSON.stringify(args)}: ${ajv.errorsText(validate.errors)}`,
    );
    if (!expectError) succeeded.add(name);
    return result.data;
  };

  const created = await check("create_tickets", {
    tickets: [{ title: "One", tags: [] }, { title: "Two", priority: 3 }, { title: "Three" }],
  });
  const [one, two, three] = created.results.map((result: { id: number }) => result.id);
  await check("prime", {});
  await check("ready", {});
  await check("search_tickets", { query: "One" });
  await check("comment", { ticketId: one, body: "A *note*" });
  await check("log_event", { ticketId: one, kind: "progress", title: "Halfway" });
  await check("get_ticket", { ticketId: one });
  await check("ticket_history", { ticketId: one });
  await check("claim", { ticketId: one });
  await check("renew_claim", { ticketId: one, note: "still on it" });
  await check("release", { ticketId: one, outcome: "handoff", note: "the rest" });
  await check("claim_next", {});
  await check("update_ticket", { ticketId: two, title: "Two, renamed", resolved: false });
  await check("link_tickets", { ticketId: two, relation: "related", otherId: three });
  await api.patch(`/api/tickets/${two}`, { bodyMarkdown: "- [ ] first\n- [ ] second\n" });
  await check("check_item", { ticketId: two, index: 1 });
  const asked = await check("ask_human", {
    ticketId: two,
    question: "Which?",
    options: ["A", "B"],
    waitSeconds: 0,
  });
  await api.post(`/api/asks/${asked.id}/answer`, {
    by: "alice",
    option: "A",
    text: "A, *clearly*",
  });
  await check("get_ask", { askId: asked.id });
  await check("bulk_update", { ticketIds: [one, two, three], action: "resolve" });
  assert.equal((await check("claim_next", {})).ticket, null, "nothing ready is valid too");
  const template = await api.post(`/api/boards/${asked.boardId}/templates`, {
    name: "Release",
    tickets: [{ key: "notes", title: "Notes for {{version}}" }],
  });
  assert.equal(template.status, 201, template.text);
  await check("instantiate_template", {});
  await check("instantiate_template", { template: "release", values: { version: "1.2" } });
  await check("remote", { action: "providers" });
  await check("board_admin", { action: "list_boards" });
  await check("board_admin", { action: "export_board" });
  await check("board_insights", {});
  await check("board_admin", { action: "delete_ticket", ticketId: three });
  await check("restore_from_trash", {});
  await check("restore_from_trash", { kind: "ticket", objectId: three });

  // Failures: the API's refusal and arguments the schema refuses.
  await check("get_ticket", { ticketId: 999999 }, true);
  await check("get_ticket", { ticketId: "seven" }, true);
  await check("create_tickets", { tickets: [] }, true);

  assert.deepEqual(
    tools.map((tool) => tool.name).filter((name) => !succeeded.has(name)),
    [],
    "every tool was checked with a successful call",
  );
  await client.close();
});

/**
 * Every place in a JSON Schema that holds a schema, with its path: an empty `{}` there accepts
 * anything and says nothing (MCP Inspector's `--strict` flags it), so none may be empty.
 */
function subschemas(schema: unknown, path: string): Array<[string, unknown]> {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return [];
  const found: Array<[string, unknown]> = [[path, schema]];
  const node = schema as Record<string, unknown>;
  for (const key of ["properties", "patternProperties", "$defs", "definitions"]) {
    const map = node[key];
    if (typeof map === "object" && map !== null) {
      for (const [name, inner] of Object.entries(map)) {
        found.push(...subschemas(inner, `${path}/${key}/${name}`));
      }
    }
  }
  for (const key of ["anyOf", "oneOf", "allOf", "prefixItems", "items"]) {
    const list = node[key];
    if (Array.isArray(list)) {
      for (const [index, inner] of list.entries()) {
        found.push(...subschemas(inner, `${path}/${key}/${index}`));
      }
    }
  }
  for (const key of ["items", "additionalProperties", "not", "contains", "propertyNames"]) {
    if (typeof node[key] === "object" && !Array.isArray(node[key])) {
      found.push(...subschemas(node[key], `${path}/${key}`));
    }
  }
  return found;
}

test("no output schema holds an empty {} schema (each value says what it is)", async () => {
  const client = await connectMcp(api.url, "schema-agent", {
    toolsets: ["remote", "admin", "templates"],
  });
  const { tools } = await client.listTools();
  const empty = tools.flatMap((tool) =>
    subschemas(tool.outputSchema, tool.name)
      .filter(([, schema]) => Object.keys(schema as object).length === 0)
      .map(([path]) => path),
  );
  assert.deepEqual(empty, []);
  // The walk does reach deep values: a full ticket's remote state is one of them.
  const paths = subschemas(tools.find((tool) => tool.name === "get_ticket")?.outputSchema, "");
  assert.ok(paths.some(([path]) => path.endsWith("/remote/anyOf/0/properties/state")));
  await client.close();
});
