// Raw HTML in a body, read the way GitHub (cmark-gfm, GFM spec 0.29) reads it where markdown-it
// (CommonMark 0.31) reads it differently, so that no typed text disappears:
//   - an inline HTML comment is `<!--` text `-->` where the text does not start with `>` or
//     `->`, does not end with `-` and holds no `--`; anything else starting with `<!--` is text
//     (spec examples 645-646). CommonMark 0.31 took `<!-->` and `<!-- a -- b -->` as comments,
//     which the filter then drops, words and all;
//   - an HTML block that ends inside a tag (`<div id="foo"` and no `>`: examples 126-128) shows
//     that unfinished tag as the text typed. A browser would read it up to the next `>` of the
//     page, and the filter would close it as a bare `<div>`, dropping the words in it.

import type MarkdownIt from "markdown-it";
import type { StateInline, Token } from "markdown-it";

/** A comment as GFM 0.29 defines it, at the start of the string. */
const GFM_COMMENT = /^<!--(?:-->|(?:-?[^>-])(?:-?[^-])*-->)/;

function commentsAsGfm(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (!src.startsWith("<!--", pos) || GFM_COMMENT.test(src.slice(pos))) return false;
  // Not a comment: the `<` is text, and the rest is read on from after it.
  if (!silent) state.pending += "<";
  state.pos++;
  return true;
}

/** A tag still open at the end of `html`: `<` + a letter, `/`, `!` or `?`, and no `>` after. */
const UNFINISHED_TAG = /<[A-Za-z/!?][^>]*$/;

/** Turns the other rules' output for raw HTML blocks into one that escapes unfinished tags. */
export function rawHtmlAsGfm(md: MarkdownIt): void {
  md.inline.ruler.before("html_inline", "gfm_comment", commentsAsGfm);
  const { escapeHtml } = md.utils;
  md.renderer.rules.html_block = (tokens, index) => {
    const html = (tokens[index] as Token).content;
    const unfinished = UNFINISHED_TAG.exec(html);
    if (unfinished === null) return html;
    return html.slice(0, unfinished.index) + escapeHtml(unfinished[0]);
  };
}
