/**
 * Writes a board of bench/dataset.ts's generator into a database file with a build's own import
 * code, in this process (`node bench/first-card-seed.ts <root> <db file> <tickets>`, run by
 * bench/first-card.ts): no HTTP body limit stands between a 100,000-ticket document and the
 * database, and the board is what `POST /api/boards/import` would have made of it.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { issueBoardDocument } from "./dataset.js";

interface SeedServices {
  boardImport: {
    import(source: unknown): Promise<{
      board?: { id: number };
      detail?: { board: { id: number } };
      release?: () => void;
    }>;
  };
  searchIndex: { schedule(): Promise<void> };
}

const [root, dbFile, count] = process.argv.slice(2);
if (!root || !dbFile || !count)
  throw new Error("usage: first-card-seed.ts <root> <db file> <tickets>");
const built = (path: string) => import(pathToFileURL(join(root, "dist", path)).href);
const { openDatabase } = await built("storage/database.js");
const { renderMarkdown } = await built("domain/markdown.js");
const { checklistOf } = await built("domain/tickets/checklists.js");
const { BoardEventBus } = await built("events/board-events.js");
const { createServices } = await built("domain/services.js");
const db = openDatabase(dbFile, { renderMarkdown, countChecklist: checklistOf });
const services = createServices(db, new BoardEventBus()) as SeedServices;
const tickets = Number(count);
const document = issueBoardDocument({ tickets, comments: tickets / 2 });
// Builds whose import reads its tickets one at a time take the document through the HTTP
// layer's adapter (http/streamed-import.ts); older builds take the document itself.
const streamed = existsSync(join(root, "dist/http/streamed-import.js"))
  ? await built("http/streamed-import.js")
  : undefined;
const imported = await services.boardImport.import(
  streamed ? streamed.importSource(document) : document,
);
imported.release?.();
const board = imported.detail?.board ?? imported.board;
// Indexed for search before any server opens it, as a board that has been served a while is.
await services.searchIndex.schedule();
db.close();
console.log(`board ${board?.id}`);
// The markdown render threads keep the process alive otherwise.
process.exit(0);
