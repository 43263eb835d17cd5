// GitHub's strikethrough (the GFM specification's "Strikethrough (extension)", as cmark-gfm's
// extensions/strikethrough.c writes it) in place of markdown-it's, which knows only `~~`:
//   - a run of one or two tildes is a delimiter (`~gone~` and `~~gone~~` both strike); a run of
//     three or more is text;
//   - it opens when left-flanking and closes when right-flanking, matched with the emphasis
//     delimiters' pairing rules (markdown-it's balance_pairs, cmark's process_emphasis, the rule
//     of 3 included);
//   - an opener and a closer of different lengths (`~a~~`) strike nothing: both stay text.
// The struck text is written as `<del>` (markdown.ts's `s_open`/`s_close` rules).

import type MarkdownIt from "markdown-it";
import type { Delimiter, StateInline, Token } from "markdown-it";

const TILDE = 0x7e;

function tokenize(state: StateInline, silent: boolean): boolean {
  if (silent || state.src.charCodeAt(state.pos) !== TILDE) return false;
  const scanned = state.scanDelims(state.pos, true);
  const run = scanned.length;
  const token = state.push("text", "", 0);
  token.content = "~".repeat(run);
  if (run <= 2 && (scanned.can_open || scanned.can_close)) {
    state.delimiters.push({
      marker: TILDE,
      length: run,
      token: state.tokens.length - 1,
      end: -1,
      open: scanned.can_open,
      close: scanned.can_close,
    });
  }
  state.pos += run;
  return true;
}

/** Turns each matched pair of equal length into `s_open`/`s_close`. */
function strike(state: StateInline, delimiters: Delimiter[]): void {
  for (const opener of delimiters) {
    if (opener.marker !== TILDE || opener.end === -1) continue;
    const closer = delimiters[opener.end] as Delimiter;
    if (opener.length !== closer.length) continue;
    const open = state.tokens[opener.token] as Token;
    open.type = "s_open";
    open.tag = "s";
    open.nesting = 1;
    open.markup = open.content;
    open.content = "";
    const close = state.tokens[closer.token] as Token;
    close.type = "s_close";
    close.tag = "s";
    close.nesting = -1;
    close.markup = close.content;
    close.content = "";
  }
}

function postProcess(state: StateInline): boolean {
  strike(state, state.delimiters);
  for (const meta of state.tokens_meta) {
    if (meta?.delimiters) strike(state, meta.delimiters);
  }
  return false;
}

/** Replaces markdown-it's strikethrough rules with GitHub's. */
export function gfmStrikethrough(md: MarkdownIt): void {
  md.inline.ruler.at("strikethrough", tokenize);
  md.inline.ruler2.at("strikethrough", postProcess);
}
