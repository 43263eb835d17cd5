import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { startTestServer } from "../helpers/server.js";

// What linters and client generators need from /api/openapi.json (docs/decisions.md, "OpenAPI
// document"). Routes are added all the time: these rules hold for every operation, so a new
// route without a summary or a described success answer fails here.

const api = await startTestServer();
const documentText = (await api.get("/api/openapi.json")).text;
const document = JSON.parse(documentText) as OpenApiDocument;

interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Array<{ in: string; name: string; description?: string }>;
  responses: Record<string, { description: string; headers?: Record<string, unknown> }>;
}
interface OpenApiDocument {
  info: { license?: { name: string; identifier?: string } };
  security?: unknown[];
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({
    name: `${method.toUpperCase()} ${path}`,
    method,
    path,
    operation,
  })),
);

function headerNames(operation: Operation): string[] {
  return (operation.parameters ?? []).filter((p) => p.in === "header").map((p) => p.name);
}

describe("every operation of the OpenAPI document", () => {
  test("has a summary: one short line, unique across the document", () => {
    assert.ok(operations.length >= 50, `only ${operations.length} operations`);
    const summaries = new Set<string>();
    for (const { name, operation } of operations) {
      const { summary } = operation;
      assert.ok(summary && summary.trim() !== "", `${name} has no summary (add one to its route)`);
      assert.ok(summary.length <= 80 && !summary.includes("\n"), `${name}: summary too long`);
      assert.ok(!summaries.has(summary), `${name} repeats the summary "${summary}"`);
      summaries.add(summary);
    }
  });

  test("has a description, and tags the document declares", () => {
    const declared = new Set((document.tags ?? []).map((tag) => tag.name));
    for (const { name, operation } of operations) {
      assert.ok(operation.description?.trim(), `${name} has no description`);
      assert.ok(operation.tags && operation.tags.length > 0, `${name} has no tag`);
      for (const tag of operation.tags) assert.ok(declared.has(tag), `${name}: tag ${tag}`);
    }
  });

  test("describes every answer: no success is just 'Default Response'", () => {
    for (const { name, operation } of operations) {
      const statuses = Object.keys(operation.responses);
      assert.ok(
        statuses.some((status) => status.startsWith("2")),
        `${name} has no success answer`,
      );
      for (const status of statuses) {
        const { description } = operation.responses[status] as { description: string };
        assert.ok(description.trim() !== "", `${name} ${status}: empty description`);
        assert.notEqual(description, "Default Response", `${name} ${status}: describe it`);
      }
    }
  });
});

describe("headers, priority, security, license", () => {
  test("every GET but the event stream takes If-None-Match and answers ETag on 200 and 304", () => {
    const gets = operations.filter(({ method }) => method === "get");
    for (const { name, operation } of gets) {
      if (operation.operationId === "streamBoardEvents") {
        assert.deepEqual(headerNames(operation), ["last-event-id"]);
        continue;
      }
      assert.ok(headerNames(operation).includes("if-none-match"), `${name}: If-None-Match`);
      for (const status of ["200", "304"]) {
        assert.ok(operation.responses[status]?.headers?.ETag, `${name} ${status}: ETag header`);
      }
    }
  });

  test("the ticket's writes take If-Match; the create endpoints Idempotency-Key", () => {
    const withHeader = (header: string) =>
      operations
        .filter(({ operation }) => headerNames(operation).includes(header))
        .map(({ name }) => name)
        .sort();
    // docs/api.md, "Coordination for agents": the ticket writes that honour If-Match, the creates
    // that honour keys.
    assert.deepEqual(withHeader("if-match"), [
      "DELETE /api/tickets/{ticketId}",
      "PATCH /api/tickets/{ticketId}",
      "PATCH /api/tickets/{ticketId}/checklist",
      "PATCH /api/tickets/{ticketId}/position",
      "PATCH /api/tickets/{ticketId}/transition",
      "POST /api/tickets/{ticketId}/claim",
      "POST /api/tickets/{ticketId}/move",
      "POST /api/tickets/{ticketId}/release",
    ]);
    assert.deepEqual(withHeader("idempotency-key"), [
      "POST /api/boards",
      "POST /api/boards/import",
      "POST /api/boards/{boardId}/remote-import",
      "POST /api/boards/{boardId}/templates",
      "POST /api/boards/{boardId}/tickets",
      "POST /api/templates/{templateId}/instantiate",
      "POST /api/tickets/{ticketId}/asks",
      "POST /api/tickets/{ticketId}/comments",
      "POST /api/tickets/{ticketId}/events",
    ]);
    for (const { name, operation } of operations) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === "header" && parameter.name !== "last-event-id") {
          assert.ok(parameter.description, `${name}: ${parameter.name} needs a description`);
        }
      }
    }
  });

  test("priority is the enum 1, 2, 3, 4 wherever it appears", () => {
    const found: unknown[] = [];
    const visit = (node: unknown) => {
      if (Array.isArray(node)) for (const item of node) visit(item);
      else if (node && typeof node === "object") {
        for (const [key, value] of Object.entries(node)) {
          if (key === "priority" && value && typeof value === "object" && "type" in value) {
            found.push(value);
          } else visit(value);
        }
      }
    };
    visit(document.paths);
    visit(document.components);
    // Ticket, TicketSummary, the create and change bodies, claim-next, export and import.
    assert.ok(found.length >= 6, `priority found only ${found.length} times`);
    for (const schema of found) {
      assert.deepEqual((schema as { enum?: unknown }).enum, [1, 2, 3, 4], JSON.stringify(schema));
      assert.equal((schema as { type?: unknown }).type, "integer");
    }
  });

  test("top-level security: none (loopback), a bearer token or the session cookie; license MIT", () => {
    assert.deepEqual(document.security, [{}, { accessToken: [] }, { sessionCookie: [] }]);
    assert.deepEqual(document.info.license, { name: "MIT", identifier: "MIT" });
  });
});

test("redocly lint with its recommended rules finds no errors and no warnings", async () => {
  const config = await createConfig({ extends: ["recommended"] });
  const problems = await lintFromString({
    source: documentText,
    absoluteRef: "openapi.json",
    config,
  });
  const listed = problems.map(
    (problem) =>
      `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`,
  );
  assert.deepEqual(listed, []);
});
