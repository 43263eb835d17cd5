import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { describe, test } from "node:test";
import { gunzipSync, gzipSync } from "node:zlib";
import { useClock } from "../../src/domain/clock.js";
import { EXPORT_DOCUMENT_TICKETS, exportTestDocument } from "../helpers/export-document.js";
import { startTestServer } from "../helpers/server.js";

/**
 * The export's exact bytes, kept: test/fixtures/export-golden.json.gz is the export of
 * exportTestDocument() imported into a fresh server at a fixed time, as the export wrote it when
 * it was built whole in memory. Any change to the bytes (order, spacing, escaping, a field) fails
 * here. To write the file again after a deliberate format change: WRITE_EXPORT_GOLDEN=1.
 */
const GOLDEN = new URL("../fixtures/export-golden.json.gz", import.meta.url);

const api = await startTestServer();

async function importAtFixedTime(document: unknown): Promise<number> {
  const restore = useClock(() => Date.parse("2026-04-01T12:00:00.000Z"));
  try {
    const imported = await api.post("/api/boards/import", document);
    assert.equal(imported.status, 201, imported.text);
    return imported.body.board.id;
  } finally {
    restore();
  }
}

describe("the export's bytes", () => {
  test("equal the kept export of a generated board with every kind of content", async () => {
    const boardId = await importAtFixedTime(exportTestDocument());
    const exported = await api.get(`/api/boards/${boardId}/export`);
    assert.equal(exported.status, 200);
    assert.equal(exported.body.tickets.length, EXPORT_DOCUMENT_TICKETS);
    if (process.env.WRITE_EXPORT_GOLDEN === "1") {
      writeFileSync(GOLDEN, gzipSync(exported.text, { level: 9 }));
    }
    const golden = gunzipSync(readFileSync(GOLDEN)).toString("utf8");
    assert.equal(exported.text.length, golden.length, "same length");
    assert.ok(exported.text === golden, "same bytes");
  });
});
