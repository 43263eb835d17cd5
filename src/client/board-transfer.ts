import { jsonMembers } from "../json/json-members.js";
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
 * writer holds the reading), and is read for its board, lanes, tags and number of tickets.
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
  const onAnswer = options.onAnswer;
  const chunks = answerOf(response);
  return summaryOf(
    onAnswer === undefined
      ? chunks
      : (async function* () {
          for await (const chunk of chunks) {
            await onAnswer(chunk);
            yield chunk;
          }
        })(),
  );
}

/** The members kept (small: a board's lanes and tags); `tickets` is only counted. */
const KEPT = new Set(["board", "lanes", "tags"]);

/**
 * A BoardDetail's board, lanes and tags and its number of tickets, read from its bytes as they
 * arrive (json/json-members.ts): its tickets are counted, never held.
 */
async function summaryOf(answer: AsyncIterable<Uint8Array>): Promise<ImportedBoard> {
  const members = new Map<string, unknown>();
  let ticketCount = 0;
  // The server's own answer: its depth is not this reader's to limit, and counting it needs no
  // recursion.
  const reading = {
    subject: "the import's answer",
    streamedKey: "tickets",
    maxDepth: Number.POSITIVE_INFINITY,
    elements: "skipped",
  } as const;
  // A malformed answer ends this with a JsonReadError naming it ("the import's answer is not
  // valid JSON"), which the CLI reports as any Error.
  for await (const piece of jsonMembers(answer, reading)) {
    if (piece.kind === "element") ticketCount += 1;
    else if (KEPT.has(piece.key)) members.set(piece.key, JSON.parse(piece.text));
  }
  const member = (name: string) => {
    if (!members.has(name)) throw new Error(`the import's answer has no ${name}`);
    return members.get(name);
  };
  return {
    board: member("board") as BoardT,
    lanes: member("lanes") as LaneT[],
    tags: member("tags") as TagT[],
    ticketCount,
  };
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
