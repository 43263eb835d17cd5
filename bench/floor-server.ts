/**
 * The floor server of bench/write-floor.ts: the least an HTTP service on tack's stack (Node 20,
 * Fastify 5 with TypeBox schemas, better-sqlite3 in WAL mode, tack's Markdown renderer) can do
 * for each single-ticket request, with none of tack's rules, on the board tack is measured on
 * (10,000 tickets over 8 lanes with their bodies, 24,000 comments). A create inserts one ticket
 * row and one activity row and answers the new ticket; a title PATCH updates the row, adds an
 * activity row and answers the ticket; a comment inserts it and an activity row; a detail reads
 * the ticket row and its comments. A trigger keeps a trigram FTS5 index of each ticket's title
 * and body as their own rows (as tack's search index keeps its parts), so a create indexes both
 * and a title PATCH rewrites the title's row. Answers have the field set of the contract's
 * Ticket (the lists that would need more tables are empty), serialized from a response schema.
 *
 * `node --import tsx bench/floor-server.ts <group|full> <render|plain> <db file> [tickets]
 * [comments]` prints
 * `listening on <url>`. `group`: tack's default durability (storage/group-commit.ts): commits
 * with synchronous = NORMAL, each answer waits for an fdatasync of the log shared by the writes
 * committed meanwhile; `full`: every commit fsyncs inside the COMMIT (synchronous = FULL).
 * `plain` stores the Markdown as its HTML, unrendered. `seed` only seeds the file and exits.
 */
import { type Static, Type } from "@sinclair/typebox";
import Database from "better-sqlite3";
import Fastify from "fastify";
import { renderMarkdown } from "../src/domain/markdown.js";
import { groupCommit } from "../src/storage/group-commit.js";
import { issueBoardDocument } from "./dataset.js";

const [
  durability = "group",
  rendering = "render",
  dbFile = "floor.sqlite",
  tickets = "10000",
  comments = "24000",
] = process.argv.slice(2);
const toHtml = rendering === "render" ? renderMarkdown : (markdown: string) => markdown;

const db = new Database(dbFile);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = FULL");
const seeded = db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'tickets'").get() !== undefined;
const SCHEMA = `
  CREATE TABLE tickets (id INTEGER PRIMARY KEY AUTOINCREMENT, board_id INTEGER NOT NULL,
    lane_id INTEGER NOT NULL, title TEXT NOT NULL, body_markdown TEXT NOT NULL,
    body_html TEXT NOT NULL, priority INTEGER NOT NULL, position INTEGER NOT NULL,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
  CREATE INDEX tickets_by_lane ON tickets (lane_id, position);
  CREATE TABLE comments (id INTEGER PRIMARY KEY AUTOINCREMENT, ticket_id INTEGER NOT NULL,
    body_markdown TEXT NOT NULL, body_html TEXT NOT NULL, created_at TEXT NOT NULL);
  CREATE INDEX comments_by_ticket ON comments (ticket_id, created_at);
  CREATE TABLE activity (id INTEGER PRIMARY KEY AUTOINCREMENT, ticket_id INTEGER NOT NULL,
    kind TEXT NOT NULL, created_at TEXT NOT NULL);
  CREATE INDEX activity_by_ticket ON activity (ticket_id, created_at);
  CREATE VIRTUAL TABLE ticket_search USING fts5(
    text, tokenize = 'trigram case_sensitive 1', content = '', contentless_delete = 1,
    detail = 'none');
  CREATE TRIGGER ticket_search_added AFTER INSERT ON tickets BEGIN
    INSERT INTO ticket_search (rowid, text)
      VALUES (NEW.id * 2, lower(NEW.title)), (NEW.id * 2 + 1, lower(NEW.body_markdown));
  END;
  CREATE TRIGGER ticket_search_renamed AFTER UPDATE OF title ON tickets
  WHEN OLD.title IS NOT NEW.title BEGIN
    DELETE FROM ticket_search WHERE rowid = NEW.id * 2;
    INSERT INTO ticket_search (rowid, text) VALUES (NEW.id * 2, lower(NEW.title));
  END;
`;
if (!seeded) db.exec(SCHEMA);
const insertTicket = db.prepare(
  `INSERT INTO tickets (board_id, lane_id, title, body_markdown, body_html, priority, position,
     created_at, updated_at) VALUES (1, ?, ?, ?, ?, 2, ?, ?, ?)`,
);
const insertComment = db.prepare(
  "INSERT INTO comments (ticket_id, body_markdown, body_html, created_at) VALUES (?, ?, ?, ?)",
);
const insertActivity = db.prepare(
  "INSERT INTO activity (ticket_id, kind, created_at) VALUES (?, ?, ?)",
);
function seedBoard(): void {
  const seed = issueBoardDocument({ tickets: Number(tickets), comments: Number(comments) });
  const laneOf = new Map(seed.lanes.map((lane, index) => [lane.id, index + 1]));
  seed.tickets.forEach((ticket, index) => {
    const at = new Date().toISOString();
    const id = Number(
      insertTicket.run(
        laneOf.get(ticket.laneId),
        ticket.title,
        ticket.bodyMarkdown,
        toHtml(ticket.bodyMarkdown),
        index,
        at,
        at,
      ).lastInsertRowid,
    );
    insertActivity.run(id, "created", at);
    for (const comment of ticket.comments ?? []) {
      insertComment.run(id, comment.bodyMarkdown, toHtml(comment.bodyMarkdown), at);
    }
  });
}
// A file seeded before (`seed` seeds one and exits; write-floor.ts copies it per run) is used as is.
if (!seeded) db.transaction(seedBoard)();
if (durability === "seed") {
  db.close();
  process.exit(0);
}

const durable = durability === "group" ? groupCommit(db, dbFile) : null;

const lastPosition = db
  .prepare("SELECT position FROM tickets WHERE lane_id = ? ORDER BY position DESC LIMIT 1")
  .pluck();
const ticketById = db.prepare("SELECT * FROM tickets WHERE id = ?");
const commentsOf = db.prepare(
  "SELECT * FROM comments WHERE ticket_id = ? ORDER BY created_at DESC, id DESC",
);
const renameTicket = db.prepare("UPDATE tickets SET title = ?, updated_at = ? WHERE id = ?");

interface TicketRow {
  id: number;
  board_id: number;
  lane_id: number;
  title: string;
  body_markdown: string;
  body_html: string;
  priority: number;
  position: number;
  created_at: string;
  updated_at: string;
}
interface CommentRow {
  id: number;
  ticket_id: number;
  body_markdown: string;
  body_html: string;
  created_at: string;
}

const Comment = Type.Object({
  id: Type.Integer(),
  ticketId: Type.Integer(),
  bodyMarkdown: Type.String(),
  bodyHtml: Type.String(),
  createdAt: Type.String(),
});
const Ticket = Type.Object({
  id: Type.Integer(),
  boardId: Type.Integer(),
  laneId: Type.Integer(),
  parentTicketId: Type.Union([Type.Integer(), Type.Null()]),
  hasChildren: Type.Boolean(),
  title: Type.String(),
  bodyMarkdown: Type.String(),
  bodyHtml: Type.String(),
  isResolved: Type.Boolean(),
  isCompleted: Type.Boolean(),
  isArchived: Type.Boolean(),
  priority: Type.Integer(),
  position: Type.Integer(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  tags: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
  comments: Type.Array(Comment),
  blockerIds: Type.Array(Type.Integer()),
  relatedIds: Type.Array(Type.Integer()),
  ref: Type.String(),
  shortRef: Type.String(),
  remote: Type.Null(),
  externalReferences: Type.Array(Type.Object({ url: Type.String() })),
});
const CreateBody = Type.Object(
  {
    laneId: Type.Integer({ minimum: 1 }),
    title: Type.String({ minLength: 1, maxLength: 500 }),
    bodyMarkdown: Type.Optional(Type.String({ maxLength: 200_000 })),
  },
  { additionalProperties: false },
);
const PatchBody = Type.Object(
  { title: Type.String({ minLength: 1, maxLength: 500 }) },
  { additionalProperties: false },
);
const CommentBody = Type.Object(
  { bodyMarkdown: Type.String({ minLength: 1, maxLength: 200_000 }) },
  { additionalProperties: false },
);
const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

function ticketAnswer(row: TicketRow, comments: CommentRow[]): Static<typeof Ticket> {
  return {
    id: row.id,
    boardId: row.board_id,
    laneId: row.lane_id,
    parentTicketId: null,
    hasChildren: false,
    title: row.title,
    bodyMarkdown: row.body_markdown,
    bodyHtml: row.body_html,
    isResolved: false,
    isCompleted: false,
    isArchived: false,
    priority: row.priority,
    position: row.position,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    tags: [],
    comments: comments.map((comment) => ({
      id: comment.id,
      ticketId: comment.ticket_id,
      bodyMarkdown: comment.body_markdown,
      bodyHtml: comment.body_html,
      createdAt: comment.created_at,
    })),
    blockerIds: [],
    relatedIds: [],
    ref: `FLOOR-${row.id}`,
    shortRef: `#${row.id}`,
    remote: null,
    externalReferences: [],
  };
}

const app = Fastify({ logger: false });
if (durable) {
  app.addHook("onSend", (_request, _reply, payload, done) => {
    const waiting = durable.afterDurable((error) => (error ? done(error) : done(null, payload)));
    if (!waiting) done(null, payload);
  });
}

app.post<{ Body: Static<typeof CreateBody> }>(
  "/floor/tickets",
  { schema: { body: CreateBody, response: { 201: Ticket } } },
  (request, reply) => {
    const { laneId, title, bodyMarkdown = "" } = request.body;
    const html = toHtml(bodyMarkdown);
    const row = db.transaction(() => {
      const at = new Date().toISOString();
      const position = ((lastPosition.get(laneId) as number | undefined) ?? -1) + 1;
      const id = Number(
        insertTicket.run(laneId, title, bodyMarkdown, html, position, at, at).lastInsertRowid,
      );
      insertActivity.run(id, "created", at);
      return ticketById.get(id) as TicketRow;
    })();
    reply.code(201).send(ticketAnswer(row, []));
  },
);

app.patch<{ Params: Static<typeof IdParams>; Body: Static<typeof PatchBody> }>(
  "/floor/tickets/:id",
  { schema: { params: IdParams, body: PatchBody, response: { 200: Ticket } } },
  (request) => {
    const { id } = request.params;
    return db.transaction(() => {
      const at = new Date().toISOString();
      renameTicket.run(request.body.title, at, id);
      insertActivity.run(id, "renamed", at);
      return ticketAnswer(ticketById.get(id) as TicketRow, commentsOf.all(id) as CommentRow[]);
    })();
  },
);

app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof CommentBody> }>(
  "/floor/tickets/:id/comments",
  { schema: { params: IdParams, body: CommentBody, response: { 201: Comment } } },
  (request, reply) => {
    const { id } = request.params;
    const html = toHtml(request.body.bodyMarkdown);
    const at = new Date().toISOString();
    const commentId = db.transaction(() => {
      const inserted = Number(
        insertComment.run(id, request.body.bodyMarkdown, html, at).lastInsertRowid,
      );
      insertActivity.run(id, "commented", at);
      return inserted;
    })();
    reply.code(201).send({
      id: commentId,
      ticketId: id,
      bodyMarkdown: request.body.bodyMarkdown,
      bodyHtml: html,
      createdAt: at,
    });
  },
);

app.get<{ Params: Static<typeof IdParams> }>(
  "/floor/tickets/:id",
  { schema: { params: IdParams, response: { 200: Ticket } } },
  (request) => {
    const { id } = request.params;
    return ticketAnswer(ticketById.get(id) as TicketRow, commentsOf.all(id) as CommentRow[]);
  },
);

const url = await app.listen({ host: "127.0.0.1", port: 0 });
console.log(`listening on ${url}`);
process.on("SIGTERM", () => {
  void app.close().then(async () => {
    await durable?.close();
    db.close();
    process.exit(0);
  });
});
