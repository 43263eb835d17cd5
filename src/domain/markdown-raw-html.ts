// Raw HTML in a body, read the way GitHub (cmark-gfm, GFM spec 0.29) reads it where markdown-it
// (CommonMark 0.31) reads it differently, so that no typed text disappears:
//   - an inline HTML comment is `<!--` text `-->` where the text does not start with `>` or
//     `->`, does not end with `-` and holds no `--`; anything else starting with `<!--` is text
//     (spec examples 645-646). CommonMark 0.31 took `<!-->` and `<!-- a -- b -->` as comments,
//     which the filter then drops, words and all;
//   - an HTML block that ends inside a tag (`<div id="foo"` and no `>`: examples 126-128) shows
//     that unfinished tag as the text typed. A browser would read it up to the next `>` of the
//     page, and the filter would close it as a bare `<div>`, dropping the words in it;
//   - whitespace in an attribute value stays as written (a link title over several lines keeps
//     its line breaks: examples 165, 663-664). The filter's tag parser (js-xss `parseAttr`) turns
//     whitespace in a value into spaces and trims it, so whitespace inside quoted values reaches
//     the filter as character references, which it decodes before the allowlist checks them.

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

const WHITESPACE = /\s/g;
const QUOTED = /"[^"]*"|'[^']*'/g;
/** A start tag, as CommonMark defines raw HTML's open tags. */
const START_TAG =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: CommonMark's unquoted attribute value
  /<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][A-Za-z0-9:._-]*(?:\s*=\s*(?:[^"'=<>`\x00-\x20]+|'[^']*'|"[^"]*"))?)*\s*\/?>/g;

/** `text` with every whitespace character written as a character reference. */
function whitespaceAsReferences(text: string): string {
  return text.replace(WHITESPACE, (space) => `&#${space.codePointAt(0)};`);
}

/** Raw HTML with the whitespace inside its start tags' quoted values as references. */
function quotedWhitespaceAsReferences(html: string): string {
  return html.replace(START_TAG, (tag) => tag.replace(QUOTED, whitespaceAsReferences));
}

/** Turns the other rules' output for raw HTML blocks into one that escapes unfinished tags. */
export function rawHtmlAsGfm(md: MarkdownIt): void {
  md.inline.ruler.before("html_inline", "gfm_comment", commentsAsGfm);
  const { escapeHtml } = md.utils;
  md.renderer.rules.html_block = (tokens, index) => {
    const html = (tokens[index] as Token).content;
    const unfinished = UNFINISHED_TAG.exec(html);
    if (unfinished === null) return quotedWhitespaceAsReferences(html);
    return (
      quotedWhitespaceAsReferences(html.slice(0, unfinished.index)) + escapeHtml(unfinished[0])
    );
  };
  md.renderer.rules.html_inline = (tokens, index) =>
    quotedWhitespaceAsReferences((tokens[index] as Token).content);
  // Markdown's own attributes (link titles, image alt text) the same way. Only this renderer's
  // output goes through the filter; the direct renderer (markdown-direct-rules.ts) writes values
  // as they are, which is what the filter now leaves of them.
  md.renderer.renderAttrs = (token) => {
    let html = "";
    for (const [name, value] of token.attrs ?? []) {
      html += ` ${escapeHtml(name)}="${whitespaceAsReferences(escapeHtml(String(value)))}"`;
    }
    return html;
  };
}
