// GitHub's extended autolinks (the GFM specification's "Autolinks (extension)"), as a markdown-it
// core rule in place of markdown-it's linkify. linkify-it links what GitHub does not (a bare
// `example.com`, any of its many top-level domains) and misses what GitHub links (`alice@x.dev`,
// `www.example.dev/x`), and its trailing-punctuation rules differ; no markdown-it plugin follows
// GitHub's rules. So this is a port of cmark-gfm's extensions/autolink.c, GitHub's own code:
//   - `www.` + a domain, linked to `http://...`, only at the start of the text or after
//     whitespace, `*`, `_`, `~` or `(`;
//   - `http://`, `https://`, `ftp://` + a domain (the allowlist later drops an ftp href, leaving
//     the text unlinked-looking but whole);
//   - e-mail addresses, `[A-Za-z0-9.+_-]+@domain`, linked to `mailto:`;
//   - a link runs to the next whitespace or `<`, then loses trailing `?!.,:*_~'"`, an
//     entity-like `&name;`, and `)` while it has more `)` than `(`.
// It runs on text tokens after markdown-it's inline parsing (so never inside a link, code or raw
// HTML), where cmark-gfm looks at the raw source: an entity such as `&amp;` reaches it decoded.

import type MarkdownIt from "markdown-it";
import type { StateCore, Token } from "markdown-it";

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const UNICODE_PUNCTUATION = /\p{P}/u;
const SPACE = /[\s]/u;

function isSpace(char: string | undefined): boolean {
  return char !== undefined && SPACE.test(char);
}

function isAlpha(char: string | undefined): boolean {
  return char !== undefined && /[A-Za-z]/.test(char);
}

function isAlphanumeric(char: string | undefined): boolean {
  return char !== undefined && /[A-Za-z0-9]/.test(char);
}

/** cmark-gfm's is_valid_hostchar: neither whitespace nor punctuation. */
function isHostChar(char: string | undefined): boolean {
  if (char === undefined || isSpace(char)) return false;
  return !(char < "\u0080" ? ASCII_PUNCTUATION.test(char) : UNICODE_PUNCTUATION.test(char));
}

/**
 * The length of the domain at `start` (cmark-gfm's check_domain), or 0 when there is none: host
 * characters, `-`, `_` and dots, no `_` in the last two labels, and (unless `allowShort`) a dot.
 */
function domainLength(text: string, start: number, allowShort: boolean): number {
  const size = text.length - start;
  let dots = 0;
  let underscoresBefore = 0;
  let underscores = 0;
  let index = 1;
  for (; index < size - 1; index++) {
    const char = text[start + index];
    if (char === "_") underscores++;
    else if (char === ".") {
      underscoresBefore = underscores;
      underscores = 0;
      dots++;
    } else if (!isHostChar(char) && char !== "-") break;
  }
  if (underscoresBefore > 0 || underscores > 0) return 0;
  if (allowShort) return index;
  return dots > 0 ? index : 0;
}

/**
 * Where a link found in text[start, end) really ends (cmark-gfm's autolink_delim). The
 * parentheses are counted once and kept up to date as characters come off the end, where
 * cmark-gfm counts them again for every `)` (quadratic on a body of thousands of them).
 */
function linkEnd(text: string, start: number, end: number): number {
  let opening = 0;
  let closing = 0;
  for (let index = start; index < end; index++) {
    const char = text[index];
    if (char === "<") end = index;
    else if (char === "(") opening++;
    else if (char === ")") closing++;
  }
  while (end > start) {
    const last = text[end - 1] as string;
    let cut = end;
    if ("?!.,:*_~'\"".includes(last)) cut = end - 1;
    else if (last === ";") {
      let entityStart = end - 2;
      while (entityStart > start && isAlpha(text[entityStart])) entityStart--;
      cut = entityStart < end - 2 && text[entityStart] === "&" ? entityStart : end - 1;
    } else if (last === ")" && closing > opening) cut = end - 1;
    else break;
    for (let index = cut; index < end; index++) {
      if (text[index] === "(") opening--;
      else if (text[index] === ")") closing--;
    }
    end = cut;
  }
  return end;
}

function runToSpace(text: string, index: number): number {
  while (index < text.length && !isSpace(text[index])) index++;
  return index;
}

interface Found {
  start: number;
  end: number;
  href: string;
}

/** A `www.` link starting at `index`, if one does. */
function wwwLink(text: string, index: number): Found | undefined {
  if (index > 0 && !"*_~(".includes(text[index - 1] as string) && !isSpace(text[index - 1])) {
    return undefined;
  }
  if (!text.startsWith("www.", index)) return undefined;
  const domain = domainLength(text, index, false);
  if (domain === 0) return undefined;
  const end = linkEnd(text, index, runToSpace(text, index + domain));
  if (end === index) return undefined;
  return { start: index, end, href: `http://${text.slice(index, end)}` };
}

/** An `http://`, `https://` or `ftp://` link whose `://` is at `colon`, if one is there. */
function schemeLink(text: string, colon: number): Found | undefined {
  if (text[colon + 1] !== "/" || text[colon + 2] !== "/") return undefined;
  let start = colon;
  while (start > 0 && isAlpha(text[start - 1])) start--;
  const scheme = text.slice(start, colon).toLowerCase();
  if (scheme !== "http" && scheme !== "https" && scheme !== "ftp") return undefined;
  if (!isHostChar(text[colon + 3])) return undefined;
  const domain = domainLength(text, colon + 3, true);
  if (domain === 0) return undefined;
  const end = linkEnd(text, start, runToSpace(text, colon + 3 + domain));
  if (end === start) return undefined;
  return { start, end, href: text.slice(start, end) };
}

/**
 * An e-mail link around the `@` at `at`, within text[from, to), if there is one. The scan stops
 * at a second `@` (which rules the address out anyway), so a run of `a@a@a@...` costs linear
 * time.
 */
function emailLink(text: string, at: number, from: number, to: number): Found | undefined {
  let start = at;
  while (start > from) {
    const char = text[start - 1];
    if (isAlphanumeric(char) || ".+-_".includes(char as string)) start--;
    else if (char === "/") return undefined;
    else break;
  }
  if (start === at) return undefined;
  let end = at;
  let ats = 0;
  let dots = 0;
  for (; end < to && ats < 2; end++) {
    const char = text[end];
    if (isAlphanumeric(char)) continue;
    if (char === "@") ats++;
    else if (char === "." && end < to - 1 && isAlphanumeric(text[end + 1])) dots++;
    else if (char !== "-" && char !== "_") break;
  }
  const last = text[end - 1];
  if (end - at < 2 || ats !== 1 || dots === 0 || !(isAlpha(last) || last === ".")) {
    return undefined;
  }
  end = linkEnd(text, at, end);
  if (end === at) return undefined;
  return { start, end, href: `mailto:${text.slice(start, end)}` };
}

/** The links in one text token's content, in order. */
function findLinks(text: string): Found[] {
  const found: Found[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index];
    let link: Found | undefined;
    if (char === "w") link = wwwLink(text, index);
    else if (char === ":") link = schemeLink(text, index);
    if (link !== undefined && link.start >= (found.at(-1)?.end ?? 0)) {
      found.push(link);
      index = link.end;
    } else index++;
  }
  // E-mail addresses are looked for in the text between the other links, as cmark-gfm does
  // after its inline pass.
  const withEmail: Found[] = [];
  let from = 0;
  for (const link of [...found, { start: text.length, end: text.length, href: "" }]) {
    let at = text.indexOf("@", from);
    while (at >= 0 && at < link.start) {
      const email = emailLink(text, at, from, link.start);
      if (email !== undefined) {
        withEmail.push(email);
        from = email.end;
        at = text.indexOf("@", from);
      } else at = text.indexOf("@", at + 1);
    }
    if (link.href !== "") withEmail.push(link);
    from = link.end;
  }
  return withEmail;
}

const MAY_LINK = /www\.|:\/\/|@/;

/** The core rule: replaces each text token holding links with text and link tokens. */
function autolink(state: StateCore): void {
  const { md } = state;
  for (const blockToken of state.tokens) {
    if (blockToken.type !== "inline" || !MAY_LINK.test(blockToken.content)) continue;
    const tokens = blockToken.children ?? [];
    const result: Token[] = [];
    let insideLink = 0;
    for (const token of tokens) {
      if (token.type === "link_open") insideLink++;
      else if (token.type === "link_close") insideLink--;
      else if (token.type === "html_inline") {
        if (/^<a[>\s]/i.test(token.content)) insideLink++;
        else if (/^<\/a\s*>/i.test(token.content)) insideLink = Math.max(0, insideLink - 1);
      }
      if (token.type !== "text" || insideLink > 0 || !MAY_LINK.test(token.content)) {
        result.push(token);
        continue;
      }
      const text = token.content;
      let position = 0;
      for (const link of findLinks(text)) {
        const href = md.normalizeLink(link.href);
        if (!md.validateLink(href)) continue;
        if (link.start > position)
          result.push(textToken(state, text.slice(position, link.start), token.level));
        const open = new state.Token("link_open", "a", 1);
        open.attrs = [["href", href]];
        open.level = token.level;
        open.markup = "linkify";
        open.info = "auto";
        result.push(open, textToken(state, text.slice(link.start, link.end), token.level + 1));
        const close = new state.Token("link_close", "a", -1);
        close.level = token.level;
        close.markup = "linkify";
        close.info = "auto";
        result.push(close);
        position = link.end;
      }
      if (position === 0) result.push(token);
      else if (position < text.length)
        result.push(textToken(state, text.slice(position), token.level));
    }
    blockToken.children = result;
  }
}

function textToken(state: StateCore, content: string, level: number): Token {
  const token = new state.Token("text", "", 0);
  token.content = content;
  token.level = level;
  return token;
}

/** Turns markdown-it's linkify off and GitHub's autolinks on. */
export function gfmAutolinks(md: MarkdownIt): void {
  md.set({ linkify: false });
  md.core.ruler.after("text_join", "gfm_autolink", autolink);
}
