import type { BoardT, LaneT, TagT } from "./api-types.js";
import { errorFromResponse } from "./errors.js";
import type { TackClient } from "./tack-client.js";

/**
 * A board's export and import with their answers read as they arrive: the export of a
 * 100,000-ticket board is ~400 MiB of JSON, the import's answer (its BoardDetail, every ticket in
 * full) ~640 MiB, and read whole either is that much text and as much again parsed.
 */

/** What an import's answer says that a person needs, read without holding the answer. */
export interface ImportedBoard {
  board: BoardT;
  lanes: LaneT[];
  tags: TagT[];
  ticketCount: number;
}

/**
 * Imports a document (its JSON text, or its bytes as they are read: a file, stdin) as a new
 * board. The 201 answer goes to `onAnswer` chunk by chunk as it arrives (awaited: a slow
 * writer holds the reading), and is scanned for its board, lanes, tags and number of tickets.
 */
export async function importBoard(
  client: TackClient,
  document: string | AsyncIterable<Uint8Array>,
  options: {
    idempotencyKey?: string | undefined;
    onUpload?: ((sent: number) => void) | undefined;
    onAnswer?: ((chunk: Uint8Array) => Promise<void> | void) | undefined;
  } = {},
): Promise<ImportedBoard> {
  const response = await client.open("POST", "/api/boards/import", {
    rawBody: document,
    idempotencyKey: options.idempotencyKey,
    onUpload: options.onUpload,
  });
  await failOnError(response);
  const scan = new BoardDetailScan();
  for await (const chunk of answerOf(response)) {
    scan.write(chunk);
    await options.onAnswer?.(chunk);
  }
  return scan.end();
}

/** The export document's bytes as the server sends them (a 4xx/5xx becomes an ApiError). */
export async function exportBoard(
  client: TackClient,
  boardId: number,
): Promise<AsyncIterable<Uint8Array>> {
  const response = await client.open("GET", `/api/boards/${boardId}/export`);
  await failOnError(response);
  return answerOf(response);
}

async function failOnError(response: Response): Promise<void> {
  if (response.status < 400) return;
  const text = await response.text();
  let message = "";
  try {
    message = (JSON.parse(text) as { error?: string }).error ?? "";
  } catch {
    // Not JSON: the status alone names the failure.
  }
  throw errorFromResponse(response.status, message || `HTTP ${response.status}`);
}

function answerOf(response: Response): AsyncIterable<Uint8Array> {
  return (response.body ??
    new ReadableStream<Uint8Array>()) as unknown as AsyncIterable<Uint8Array>;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN = new Set([0x7b, 0x5b]); // { [
const CLOSE = new Set([0x7d, 0x5d]); // } ]
const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
/** The members kept (small: a board's lanes and tags); `tickets` is only counted. */
const KEPT = new Set(["board", "lanes", "tags"]);

/**
 * One pass over a BoardDetail's JSON bytes: depth and strings tracked byte by byte (a byte of a
 * multi-byte UTF-8 character is never a quote, backslash or bracket), the top-level members
 * `board`, `lanes` and `tags` kept as text and parsed at the end, the elements of `tickets`
 * counted by their separating commas. Holds those members and the current key, never a ticket.
 */
class BoardDetailScan {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1: the next string is a member's name. */
  private expectKey = true;
  private key: number[] | null = null;
  private member = "";
  /** Inside the value of a kept member. */
  private keeping = false;
  private kept: Buffer[] = [];
  private readonly members = new Map<string, string>();
  private commas = 0;
  private ticketSeen = false;

  write(chunk: Uint8Array): void {
    // Where the kept member's bytes start in this chunk (-1: not in one).
    let keepFrom = this.keeping ? 0 : -1;
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index] as number;
      if (!this.keeping && this.depth === 1 && !this.expectKey && KEPT.has(this.member)) {
        this.keeping = true;
        keepFrom = index;
      }
      if (this.inString) {
        if (this.key !== null && !(byte === QUOTE && !this.escaped)) this.key.push(byte);
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) {
          this.inString = false;
          if (this.key !== null) {
            this.member = JSON.parse(`"${Buffer.from(this.key).toString("utf8")}"`) as string;
            this.key = null;
          }
        }
        continue;
      }
      if (SPACE.has(byte)) continue;
      if (this.depth === 2 && this.member === "tickets") {
        if (byte === COMMA) this.commas++;
        else if (!CLOSE.has(byte)) this.ticketSeen = true;
      }
      if (byte === QUOTE) {
        this.inString = true;
        if (this.depth === 1 && this.expectKey) this.key = [];
      } else if (OPEN.has(byte)) {
        this.depth++;
      } else if (CLOSE.has(byte)) {
        this.depth--;
      }
      if (this.depth === 1 && byte === COLON) {
        this.expectKey = false;
      } else if ((this.depth === 1 && byte === COMMA) || (this.depth === 0 && CLOSE.has(byte))) {
        // The end of a member's value.
        if (this.keeping) {
          this.kept.push(Buffer.from(chunk.subarray(keepFrom, index)));
          this.members.set(this.member, Buffer.concat(this.kept).toString("utf8"));
        }
        this.keeping = false;
        keepFrom = -1;
        this.kept = [];
        this.member = "";
        this.expectKey = true;
      }
    }
    if (this.keeping) this.kept.push(Buffer.from(chunk.subarray(keepFrom)));
  }

  end(): ImportedBoard {
    const member = (name: string) => {
      const text = this.members.get(name);
      if (text === undefined) throw new Error(`the import's answer has no ${name}`);
      return JSON.parse(text) as unknown;
    };
    return {
      board: member("board") as BoardT,
      lanes: member("lanes") as LaneT[],
      tags: member("tags") as TagT[],
      ticketCount: this.ticketSeen ? this.commas + 1 : 0,
    };
  }
}
