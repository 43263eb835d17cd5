import type { TicketClaim } from "../domain/model.js";
import type { TicketRow } from "../storage/tickets.js";
import type { TicketPartsJson } from "./ticket-parts.js";

/**
 * A full Ticket's JSON from kept pieces (docs/performance.md, "Ticket answers from kept parts").
 * The route's serializer (fast-json-stringify) writes a Ticket's properties in schema order; the
 * parts a change of the ticket's own columns leaves alone (bodies, tags, references, comments,
 * relations: ticket-parts.ts) are cut from one such answer and kept, and later answers join them
 * with the few fields that change (title, flags, position, dates, version, claim), written here as
 * the serializer writes them: a string as `JSON.stringify` writes it (fast-json-stringify escapes
 * by the same rules, or calls it), an integer as its decimal digits, a boolean as `true`/`false`.
 *
 * The first answer cut is checked: its pieces joined with the fields written here must give the
 * serializer's text exactly, or nothing is kept and every answer of that ticket is serialized
 * in full (test/kept-answers/ticket-answers.test.ts compares joined answers with the serializer's text;
 * test/api/live-lists-*.test.ts compare answers with a reference server's byte for byte).
 */

/** Where the kept pieces begin in a Ticket's JSON (each key's first top-level occurrence). */
const LINKS = ',"tags":';
const VERSION = ',"version":';
const BODIES = ',"bodyMarkdown":';
const RELATIONS = ',"comments":';
const REMOTE = ',"remote":';
/** A Ticket's end when it tracks no remote issue (tickets that do are serialized in full). */
const NO_REMOTE = ',"remote":null}';

/** The fields of a Ticket's JSON before its links: the row's, and `hasChildren`. */
function head(row: TicketRow, hasChildren: boolean): string {
  const resolved = row.isResolved ? "true" : "false";
  return (
    `{"id":${row.id},"boardId":${row.boardId},"laneId":${row.laneId}` +
    `,"parentTicketId":${row.parentTicketId === null ? "null" : row.parentTicketId}` +
    `,"hasChildren":${hasChildren ? "true" : "false"},"title":${JSON.stringify(row.title)}` +
    `,"isResolved":${resolved},"isCompleted":${resolved}` +
    `,"isArchived":${row.isArchived ? "true" : "false"},"priority":${row.priority}` +
    `,"position":${row.position},"createdAt":${JSON.stringify(row.createdAt)}` +
    `,"updatedAt":${JSON.stringify(row.updatedAt)}`
  );
}

function versionAndClaim(row: TicketRow, claim: TicketClaim | null): string {
  const shown =
    claim === null
      ? "null"
      : `{"actor":${JSON.stringify(claim.actor)},"claimedAt":${JSON.stringify(claim.claimedAt)}` +
        `,"expiresAt":${JSON.stringify(claim.expiresAt)}}`;
  const notBefore = row.notBefore === null ? "null" : JSON.stringify(row.notBefore);
  return (
    `${VERSION}${row.version},"claim":${shown},"notBefore":${notBefore}` +
    `,"openAsks":${row.openAsks}` +
    `,"checklist":{"done":${row.checklistDone},"total":${row.checklistTotal}}`
  );
}

/** What a Ticket's JSON shows besides its kept pieces. */
export interface TicketFresh {
  row: TicketRow;
  hasChildren: boolean;
  claim: TicketClaim | null;
}

/**
 * A full Ticket's JSON as an answer sends it: the serializer's text, or the UTF-8 bytes joined
 * from kept pieces. Bytes go to the socket as they are: a joined string would be flattened to
 * measure it, flattened again behind the response's headers and encoded, ~3 copies of ~5 KB per
 * answer (docs/performance.md, "The request path").
 */
export type TicketJson = string | Buffer;

const NO_REMOTE_BYTES = Buffer.from(NO_REMOTE);

/** A Ticket's JSON (with no remote issue) from its kept pieces and its fresh fields. */
export function joinTicketJson(fresh: TicketFresh, kept: TicketPartsJson): Buffer {
  const start = head(fresh.row, fresh.hasChildren);
  const middle = versionAndClaim(fresh.row, fresh.claim);
  const length =
    Buffer.byteLength(start) +
    kept.links.length +
    Buffer.byteLength(middle) +
    kept.bodies.length +
    kept.relations.length +
    NO_REMOTE_BYTES.length;
  // Not from Node's shared pool: an answer kept by a cache must not hold a pool's 8 KB slab.
  const bytes = Buffer.allocUnsafeSlow(length);
  let at = bytes.write(start, 0);
  at += kept.links.copy(bytes, at);
  at += bytes.write(middle, at);
  at += kept.bodies.copy(bytes, at);
  at += kept.relations.copy(bytes, at);
  NO_REMOTE_BYTES.copy(bytes, at);
  return bytes;
}

/**
 * The pieces to keep, cut from the serializer's JSON of a Ticket with no remote issue and kept
 * as UTF-8 bytes (views of one buffer); undefined when the fields written here would not give
 * that text back.
 */
export function cutTicketJson(full: string, fresh: TicketFresh): TicketPartsJson | undefined {
  // Every key before each of these is a scalar or an object without such a key, and a string
  // cannot hold `,"` unescaped: the first occurrence is the Ticket's own property.
  const links = full.indexOf(LINKS);
  const version = full.indexOf(VERSION, links);
  const body = full.indexOf(BODIES, version);
  const relations = full.indexOf(RELATIONS, body);
  const remote = full.indexOf(REMOTE, relations);
  if (links < 0 || version < 0 || body < 0 || relations < 0 || remote < 0) return undefined;
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(full));
  bytes.write(full, 0);
  const at = (index: number) => Buffer.byteLength(full.slice(0, index));
  const json: TicketPartsJson = {
    links: bytes.subarray(at(links), at(version)),
    relations: bytes.subarray(at(relations), at(remote)),
    bodies: bytes.subarray(at(body), at(relations)),
  };
  return joinTicketJson(fresh, json).equals(bytes) ? json : undefined;
}
