/**
 * Reads a JSON object as its bytes arrive, handing out the JSON text of each of its members, and
 * of one array member (`streamedKey`) each element on its own: the shape of a board document,
 * whose `tickets` array is nearly all of it. The server reads an import's body this way
 * (http/streamed-import.ts), the CLI the import's answer (client/board-transfer.ts), which only
 * counts the elements (`elements: "skipped"`: their bytes are never gathered). Only the member
 * or element being read is held, however long the document. Each piece's text is exact JSON
 * for `JSON.parse` (which then checks its syntax in full); this reader checks the structure
 * around the pieces (braces, colons, commas) and the nesting depth, so no recursive walk of a
 * parsed piece can exhaust the stack.
 *
 * Neither HTTP nor domain: a malformed document is a JsonReadError, whose message names the
 * document by the caller's `subject` ("request body is not valid JSON"); each caller turns it
 * into its own error.
 *
 * UTF-8 needs no decoding here: no byte of a multi-byte character is a quote, backslash, brace
 * or bracket, so pieces are cut at byte positions and decoded whole.
 */

export type MemberPiece = { kind: "member"; key: string; text: string };
export type JsonPiece = MemberPiece | { kind: "element"; text: string };
/** A piece read with `elements: "skipped"`: an element is only said to have passed. */
export type CountedPiece = MemberPiece | { kind: "element" };

export interface MemberReading {
  /** How messages name the document: "request body" → "request body is not valid JSON". */
  subject: string;
  /** The array member whose elements come one by one. */
  streamedKey: string;
  /** Levels of nesting allowed, the top object included (Infinity: any). */
  maxDepth: number;
}

/** The document is not JSON, not an object, nests too deep or repeats `streamedKey`. */
export class JsonReadError extends Error {
  override readonly name = "JsonReadError";
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
const isDelimiter = (byte: number) =>
  isSpace(byte) || byte === COMMA || byte === CLOSE_BRACE || byte === CLOSE_BRACKET;

/** Where the reader is, between pieces. */
enum At {
  BeforeObject,
  BeforeKey,
  BeforeColon,
  BeforeValue,
  AfterValue,
  BeforeElement,
  AfterElement,
  End,
}

/** The pieces of a JSON object, each element of `streamedKey` with its text. */
export function jsonMembers(
  chunks: AsyncIterable<Uint8Array>,
  reading: MemberReading,
): AsyncGenerator<JsonPiece>;
/** The pieces of a JSON object, the elements of `streamedKey` only counted. */
export function jsonMembers(
  chunks: AsyncIterable<Uint8Array>,
  reading: MemberReading & { elements: "skipped" },
): AsyncGenerator<CountedPiece>;
export async function* jsonMembers(
  chunks: AsyncIterable<Uint8Array>,
  reading: MemberReading & { elements?: "skipped" },
): AsyncGenerator<JsonPiece | CountedPiece> {
  const { subject, streamedKey, maxDepth } = reading;
  const keepElements = reading.elements !== "skipped";
  const notJson = () => new JsonReadError(`${subject} is not valid JSON`);
  const tooDeep = () => new JsonReadError(`${subject} is nested more than ${maxDepth} levels deep`);
  let at = At.BeforeObject;
  let first = true; // no member (element) yet: a closing brace (bracket) may come
  let key = "";
  // The piece being read: its bytes so far (none gathered for a skipped element), and how it
  // ends.
  let pieces: Uint8Array[] | null = null;
  let gathering = true;
  let pieceIsKey = false;
  const scan: PieceScan = { inString: false, escaped: false, primitive: false, depth: 0, base: 0 };
  let streaming = false; // reading the elements of `streamedKey`
  let streamed = false; // its elements have been read

  for await (const chunk of chunks) {
    let start = 0; // where the piece began in this chunk
    let index = 0;
    while (index < chunk.length) {
      if (pieces !== null) {
        // Inside a piece: find its end.
        const end = pieceEnd(chunk, index, scan, maxDepth);
        if (end === TOO_DEEP) throw tooDeep();
        if (end === GOES_ON) break;
        index = end;
        if (!gathering) {
          pieces = null;
          yield { kind: "element" };
          at = At.AfterElement;
          continue;
        }
        pieces.push(chunk.subarray(start, index));
        const text = Buffer.concat(pieces).toString("utf8");
        pieces = null;
        if (pieceIsKey) {
          key = parseKey(text, notJson);
          at = At.BeforeColon;
        } else if (streaming) {
          yield { kind: "element", text };
          at = At.AfterElement;
        } else {
          yield { kind: "member", key, text };
          at = At.AfterValue;
        }
        continue;
      }

      const byte = chunk[index] as number;
      if (isSpace(byte)) {
        index++;
        continue;
      }
      switch (at) {
        case At.BeforeObject:
          if (byte !== OPEN_BRACE) throw startsAValue(byte) ? notAnObject() : notJson();
          at = At.BeforeKey;
          first = true;
          break;
        case At.BeforeKey:
          if (byte === CLOSE_BRACE && first) at = At.End;
          else if (byte === QUOTE) {
            ({ pieces, start } = begin(index));
            pieceIsKey = true;
            restart(scan, true, 0);
            index++;
            continue;
          } else throw notJson();
          break;
        case At.BeforeColon:
          if (byte !== COLON) throw notJson();
          at = At.BeforeValue;
          break;
        case At.BeforeValue:
          if (key === streamedKey && byte === OPEN_BRACKET) {
            if (streamed) throw new JsonReadError(`${subject} repeats the member ${streamedKey}`);
            streamed = true;
            streaming = true;
            first = true;
            at = At.BeforeElement;
            if (2 > maxDepth) throw tooDeep();
            break;
          }
          ({ pieces, start } = begin(index));
          beginValue(byte, 1);
          continue;
        case At.AfterValue:
          if (byte === COMMA) {
            at = At.BeforeKey;
            first = false;
          } else if (byte === CLOSE_BRACE) at = At.End;
          else throw notJson();
          break;
        case At.BeforeElement:
          if (byte === CLOSE_BRACKET && first) {
            streaming = false;
            at = At.AfterValue;
            break;
          }
          ({ pieces, start } = begin(index));
          beginValue(byte, 2);
          continue;
        case At.AfterElement:
          if (byte === COMMA) {
            at = At.BeforeElement;
            first = false;
          } else if (byte === CLOSE_BRACKET) {
            streaming = false;
            at = At.AfterValue;
          } else throw notJson();
          break;
        case At.End:
          throw notJson();
      }
      index++;
    }
    // The piece goes on in the next chunk.
    if (pieces !== null && gathering) pieces.push(chunk.subarray(start));
  }
  if (pieces !== null && scan.primitive && !pieceIsKey) {
    // A number or literal that ends the body can only be a member left unclosed.
    throw notJson();
  }
  if (at === At.BeforeObject) throw notAnObject();
  if (at !== At.End) throw notJson();

  /** A piece starting at `index` of the current chunk. */
  function begin(index: number): { pieces: Uint8Array[]; start: number } {
    gathering = keepElements || !streaming;
    return { pieces: [], start: index };
  }

  function notAnObject(): JsonReadError {
    return new JsonReadError(`${subject} must be a JSON object`);
  }

  /** Sets up reading a value whose first byte is `byte`, `levels` deep in the document. */
  function beginValue(byte: number, levels: number): void {
    pieceIsKey = false;
    restart(scan, false, levels);
    if (byte === QUOTE) {
      // Read from its opening quote: the scan sees it and starts the string.
      return;
    }
    if (byte === OPEN_BRACE || byte === OPEN_BRACKET) return;
    if (byte === COMMA || byte === CLOSE_BRACE || byte === CLOSE_BRACKET || byte === COLON) {
      throw notJson();
    }
    scan.primitive = true;
  }
}

/** How far the scan of a piece has come, carried from one chunk to the next. */
interface PieceScan {
  inString: boolean;
  escaped: boolean;
  /** A number or literal: it ends at a delimiter, which is not part of it. */
  primitive: boolean;
  /** Open braces and brackets inside the piece. */
  depth: number;
  /** Levels around the piece. */
  base: number;
}

/** The scan at a piece's first byte (or, for a key, just past its opening quote). */
function restart(scan: PieceScan, inString: boolean, base: number): void {
  scan.inString = inString;
  scan.escaped = false;
  scan.primitive = false;
  scan.depth = 0;
  scan.base = base;
}

const GOES_ON = -1;
const TOO_DEEP = -2;

/**
 * Where the piece being scanned ends in `chunk` (the index after its last byte), GOES_ON when it
 * goes on in the next chunk, TOO_DEEP when it nests past `maxDepth`. A function of its own, its
 * state in locals while it runs: nearly every byte of a document passes through this loop, and
 * the generator's variables that its helpers share live in a context, a memory access each.
 */
function pieceEnd(chunk: Uint8Array, from: number, scan: PieceScan, maxDepth: number): number {
  let { inString, escaped, depth } = scan;
  const length = chunk.length;
  let index = from;
  let end = GOES_ON;
  if (scan.primitive) {
    while (index < length && !isDelimiter(chunk[index] as number)) index++;
    return index < length ? index : GOES_ON;
  }
  for (; index < length; index++) {
    let byte = chunk[index] as number;
    if (inString) {
      if (escaped) {
        escaped = false;
        continue;
      }
      // Most of a document is the text inside strings: skip to its next quote or backslash.
      while (byte !== QUOTE && byte !== BACKSLASH && ++index < length)
        byte = chunk[index] as number;
      if (index === length) break;
      if (byte === BACKSLASH) escaped = true;
      else {
        inString = false;
        if (depth === 0) {
          end = index + 1;
          break;
        }
      }
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth += 1;
      if (scan.base + depth > maxDepth) return TOO_DEEP;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth -= 1;
      if (depth === 0) {
        end = index + 1;
        break;
      }
    }
  }
  scan.inString = inString;
  scan.escaped = escaped;
  scan.depth = depth;
  return end;
}

function parseKey(text: string, notJson: () => JsonReadError): string {
  try {
    return JSON.parse(text) as string;
  } catch {
    throw notJson();
  }
}

/** Whether a document starting with this byte is JSON, though not an object. */
function startsAValue(byte: number): boolean {
  return (
    byte === OPEN_BRACKET ||
    byte === QUOTE ||
    byte === 0x2d ||
    (byte >= 0x30 && byte <= 0x39) ||
    byte === 0x74 ||
    byte === 0x66 ||
    byte === 0x6e
  );
}
