/**
 * How deep JSON nests, measured without recursion (a hostile value may nest thousands of levels,
 * and measuring it must not be what exhausts the stack). An object or array is one level, plus
 * the deepest of its members.
 */

/** Whether a parsed value nests at most `limit` levels. */
export function nestingDepthAtMost(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [current, depth] = next;
    if (current === null || typeof current !== "object") continue;
    if (depth > limit) return false;
    for (const member of Object.values(current)) {
      if (member !== null && typeof member === "object") pending.push([member, depth + 1]);
    }
  }
  return true;
}

const STRUCTURAL = /[[\]{}"]/g;

/**
 * Whether JSON text nests at most `limit` levels, read from the text before it is parsed. Strings
 * are skipped with indexOf (bodies are mostly long strings), so this costs a fraction of the
 * parse. Text that is not valid JSON may get either answer; the parser then rejects it.
 */
export function textNestingDepthAtMost(text: string, limit: number): boolean {
  const structural = new RegExp(STRUCTURAL);
  let depth = 0;
  for (let match = structural.exec(text); match !== null; match = structural.exec(text)) {
    const char = text.charCodeAt(match.index);
    if (char === QUOTE) {
      const end = closingQuote(text, match.index);
      if (end === -1) return true;
      structural.lastIndex = end + 1;
    } else if (char === OPEN_BRACE || char === OPEN_BRACKET) {
      depth += 1;
      if (depth > limit) return false;
    } else {
      depth -= 1;
    }
  }
  return true;
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const OPEN_BRACKET = 91;

/** Index of the quote that ends the string opened at `start`: one not escaped by a backslash. */
function closingQuote(text: string, start: number): number {
  let candidate = text.indexOf('"', start + 1);
  while (candidate !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(candidate - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return candidate;
    candidate = text.indexOf('"', candidate + 1);
  }
  return -1;
}
