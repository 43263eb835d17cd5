import { InvalidInput } from "../domain/errors.js";

/**
 * Reads a JSON object as its bytes arrive, handing out the JSON text of each of its members, and
 * of one array member (`streamedKey`) each element on its own: the shape of a board document,
 * whose `tickets` array is nearly all of it (http/streamed-import.ts). Only the member or element
 * being read is held, however long the document. Each piece's text is exact JSON for
 * `JSON.parse` (which then checks its syntax in full); this reader checks the structure around
 * the pieces (braces, colons, commas) and the nesting depth, so no recursive walk of a parsed
 * piece can exhaust the stack.
 *
 * UTF-8 needs no decoding here: no byte of a multi-byte character is a quote, backslash, brace
 * or bracket, so pieces are cut at byte positions and decoded whole.
 */

export type JsonPiece =
  | { kind: "member"; key: string; text: string }
  | { kind: "element"; text: string };

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

export const NOT_JSON = "request body is not valid JSON";
export const NOT_AN_OBJECT = "request body must be a JSON object";

export async function* jsonMembers(
  chunks: AsyncIterable<Buffer>,
  streamedKey: string,
  maxDepth: number,
): AsyncGenerator<JsonPiece> {
  const tooDeep = () =>
    new InvalidInput(`request body is nested more than ${maxDepth} levels deep`);
  let at = At.BeforeObject;
  let first = true; // no member (element) yet: a closing brace (bracket) may come
  let key = "";
  // The piece being read: its bytes so far, and how it ends.
  let pieces: Buffer[] | null = null;
  let pieceIsKey = false;
  let inString = false;
  let escaped = false;
  let primitive = false;
  let depth = 0; // open braces and brackets inside the piece
  let baseDepth = 0; // levels around the piece
  let streaming = false; // reading the elements of `streamedKey`
  let streamed = false; // its elements have been read

  for await (const chunk of chunks) {
    let start = 0; // where the piece began in this chunk
    let index = 0;
    while (index < chunk.length) {
      if (pieces !== null) {
        // Inside a piece: find its end.
        let ended = false;
        for (; index < chunk.length; index++) {
          const byte = chunk[index] as number;
          if (inString) {
            if (escaped) escaped = false;
            else if (byte === BACKSLASH) escaped = true;
            else if (byte === QUOTE) {
              inString = false;
              if (depth === 0) {
                index++;
                ended = true;
                break;
              }
            }
          } else if (primitive) {
            if (isDelimiter(byte)) {
              ended = true;
              break;
            }
          } else if (byte === QUOTE) inString = true;
          else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
            depth += 1;
            if (baseDepth + depth > maxDepth) throw tooDeep();
          } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
            depth -= 1;
            if (depth === 0) {
              index++;
              ended = true;
              break;
            }
          }
        }
        if (!ended) break;
        pieces.push(chunk.subarray(start, index));
        const text = Buffer.concat(pieces).toString("utf8");
        pieces = null;
        if (pieceIsKey) {
          key = parseKey(text);
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
          if (byte !== OPEN_BRACE)
            throw new InvalidInput(startsAValue(byte) ? NOT_AN_OBJECT : NOT_JSON);
          at = At.BeforeKey;
          first = true;
          break;
        case At.BeforeKey:
          if (byte === CLOSE_BRACE && first) at = At.End;
          else if (byte === QUOTE) {
            ({ pieces, start } = begin(index));
            pieceIsKey = true;
            inString = true;
            escaped = false;
            depth = 0;
            primitive = false;
            index++;
            continue;
          } else throw new InvalidInput(NOT_JSON);
          break;
        case At.BeforeColon:
          if (byte !== COLON) throw new InvalidInput(NOT_JSON);
          at = At.BeforeValue;
          break;
        case At.BeforeValue:
          if (key === streamedKey && byte === OPEN_BRACKET) {
            if (streamed) throw new InvalidInput(`request body repeats the member ${streamedKey}`);
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
          else throw new InvalidInput(NOT_JSON);
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
          } else throw new InvalidInput(NOT_JSON);
          break;
        case At.End:
          throw new InvalidInput(NOT_JSON);
      }
      index++;
    }
    // The piece goes on in the next chunk.
    if (pieces !== null) pieces.push(chunk.subarray(start));
  }
  if (pieces !== null && primitive && !pieceIsKey) {
    // A number or literal that ends the body can only be a member left unclosed.
    throw new InvalidInput(NOT_JSON);
  }
  if (at === At.BeforeObject) throw new InvalidInput(NOT_AN_OBJECT);
  if (at !== At.End) throw new InvalidInput(NOT_JSON);

  /** A piece starting at `index` of the current chunk. */
  function begin(index: number): { pieces: Buffer[]; start: number } {
    return { pieces: [], start: index };
  }

  /** Sets up reading a value whose first byte is `byte`, `levels` deep in the document. */
  function beginValue(byte: number, levels: number): void {
    pieceIsKey = false;
    inString = false;
    escaped = false;
    primitive = false;
    depth = 0;
    baseDepth = levels;
    if (byte === QUOTE) {
      // Read from its opening quote: the scan sees it and starts the string.
      return;
    }
    if (byte === OPEN_BRACE || byte === OPEN_BRACKET) return;
    if (byte === COMMA || byte === CLOSE_BRACE || byte === CLOSE_BRACKET || byte === COLON) {
      throw new InvalidInput(NOT_JSON);
    }
    primitive = true;
  }
}

function parseKey(text: string): string {
  try {
    return JSON.parse(text) as string;
  } catch {
    throw new InvalidInput(NOT_JSON);
  }
}

/** Whether a body starting with this byte is JSON, though not an object. */
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
