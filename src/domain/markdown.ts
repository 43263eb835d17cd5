// Markdown -> safe HTML, used for every `bodyHtml` the API returns (ticket,
// comment and remote issue bodies). Bodies come from GitHub, GitLab and Redmine
// issues as often as from people typing here, so they render the way those
// trackers render issue text:
//   - a single newline is a line break (`breaks: true`);
//   - the inline HTML those sites allow (details/summary, kbd, sub/sup, b/i,
//     img with an http(s) src, ...) is kept: markdown-it passes raw HTML
//     through (`html: true`) and the allowlist filter (html-sanitizer.ts) keeps
//     exactly those tags and attributes; any other tag is shown as the text
//     typed, escaped (no text is lost);
//   - GitHub's own rules where markdown-it's differ: its autolinks
//     (markdown-autolinks.ts), `<del>` for ~strikethrough~ and ~~strikethrough~~
//     (markdown-strikethrough.ts), raw HTML read as GFM 0.29 reads it
//     (markdown-raw-html.ts), an autolink's text shown as typed, a leading
//     byte-order mark ignored, and headings with GitHub's anchors,
//     `id="user-content-<slug>"` (markdown-heading-anchors.ts);
//   - fenced code with a language is highlighted here, on the server
//     (code-highlighting.ts), as `<pre><code class="hljs language-x">` with
//     `hljs-*` token spans.
// Links keep an href only for http, https, mailto and relative URLs, decided by
// the allowlist (html-allowlist.ts). All is configured once, by the first body rendered
// (load-on-first-use.ts: a server that only reads never loads markdown-it).
//
// The filter runs only where raw HTML is. A body whose tokens hold no raw HTML
// (most of them) is written by a second renderer, markdown-direct-rules.ts,
// whose rules produce exactly what the filter would leave of markdown-it's
// output (same allowlist, html-allowlist.ts), so it skips the filter pass, about
// half the cost of a render. test/domain/markdown-direct.test.ts proves both paths give
// the same bytes.

import { tasklist } from "@mdit/plugin-tasklist";
import type MarkdownIt from "markdown-it";
import { highlightCode, knownLanguage } from "./code-highlighting.js";
import { sanitizeHtml } from "./html-sanitizer.js";
import { onFirstUse, requirePackage } from "./load-on-first-use.js";
import { gfmAutolinks } from "./markdown-autolinks.js";
import { directlyRenderable, directRenderer } from "./markdown-direct-rules.js";
import { withHeadingAnchors } from "./markdown-heading-anchors.js";
import { rawHtmlAsGfm } from "./markdown-raw-html.js";
import { gfmStrikethrough } from "./markdown-strikethrough.js";

/** markdown-it as set up below, and the direct renderer built from it. */
const engine = onFirstUse(() => {
  const Markdown = requirePackage("markdown-it") as typeof MarkdownIt;
  const md = new Markdown({
    html: true, // raw HTML passes to the allowlist filter, which keeps only safe tags
    breaks: true, // a single newline is a <br />, as in GitHub, GitLab and Redmine issues
    linkify: false, // GitHub's own autolink rules instead (markdown-autolinks.ts)
    typographer: false, // keep the text exactly as typed (no smart quotes)
    xhtmlOut: true, // <br />, <hr />, <img ... />: one spelling, whichever layer wrote the tag
    // A fence whose language is known is highlighted and written whole; any other is left to
    // markdown-it, which escapes it into <pre><code class="language-xxx">.
    highlight: (code, language) => {
      const known = knownLanguage(language);
      if (known === undefined) return "";
      return `<pre><code class="hljs language-${known}">${highlightCode(code, known)}</code></pre>`;
    },
  });
  // Tables and ~~strikethrough~~ are on in markdown-it's default preset.

  // Every link destination is accepted here, as GitHub's parser accepts it; what a link may point
  // to is decided once, by the allowlist (html-allowlist.ts `linkStartTag`), which writes an `<a>`
  // without href for any scheme but http, https and mailto, the way GitHub's sanitizer does. So
  // `[text](javascript:...)` or `<irc://host>` shows its text, never a usable link, and no text is
  // lost to a refused link.
  md.validateLink = () => true;

  // An autolink's text is the URL as typed (`<https://x.example/?a=%5Bx%5D>` keeps its `%5B`), as
  // GitHub shows it; markdown-it would decode percent-escapes and punycode for display.
  md.normalizeLinkText = (url) => url;

  // GitHub writes ~strikethrough~ and ~~strikethrough~~ as <del>.
  gfmStrikethrough(md);
  md.renderer.rules.s_open = () => "<del>";
  md.renderer.rules.s_close = () => "</del>";

  gfmAutolinks(md);
  rawHtmlAsGfm(md);

  // GFM task lists: `- [ ] x` / `- [x] y` become disabled checkboxes. No <label>
  // wrapper: its for/id pairing would be stripped by the sanitizer anyway, and
  // ids would collide when several bodies are shown on one page.
  md.use(tasklist, { disabled: true, label: false });

  // markdown-it writes table column alignment as style="text-align:right", but
  // we allow no style attribute at all. Rewrite it to the `align` attribute,
  // which is what GitHub itself emits for aligned columns.
  md.core.ruler.push("table_align", (state) => {
    for (const token of state.tokens) {
      if (token.type !== "th_open" && token.type !== "td_open") continue;
      const match = /^text-align:(left|center|right)$/.exec(token.attrGet("style") ?? "");
      token.attrs = match?.[1] ? [["align", match[1]]] : null;
    }
  });

  // Built last: it copies the rules of `md.renderer`, plugins' included.
  return { md, direct: directRenderer(md) };
});

/**
 * The HTML of a body, no memo: written directly when its tokens allow it, otherwise rendered by
 * markdown-it and then filtered (both layers, as every body was rendered before the direct path).
 */
function renderFresh(markdown: string): string {
  const { md, direct } = engine();
  const env = {};
  const tokens = md.parse(withoutByteOrderMark(markdown), env);
  if (directlyRenderable(tokens)) return withHeadingAnchors(direct.render(tokens, md.options, env));
  return withHeadingAnchors(sanitizeHtml(md.renderer.render(tokens, md.options, env)));
}

/** A file saved with a byte-order mark starts with U+FEFF, which GitHub (cmark) skips. */
function withoutByteOrderMark(markdown: string): string {
  return markdown.charCodeAt(0) === 0xfeff ? markdown.slice(1) : markdown;
}

/**
 * The GFM task list items of a body (`- [ ] x`, `- [x] y`, any marker and depth, block quotes
 * included; code and raw HTML blocks hold none), in document order: the line each item's text
 * starts on (0-based, lines split as markdown-it splits them) and whether its box is checked.
 * Read from markdown-it's parse with the task list plugin set up above, so an item counts exactly
 * when the rendered body shows a checkbox for it.
 */
export function taskItems(markdown: string): Array<{ line: number; checked: boolean }> {
  const items: Array<{ line: number; checked: boolean }> = [];
  for (const token of engine().md.parse(markdown, {})) {
    const box = token.type === "inline" ? token.children?.[0] : undefined;
    if (box?.type !== "checkbox_input" || !token.map) continue;
    items.push({ line: token.map[0], checked: box.attrGet("checked") !== null });
  }
  return items;
}

/**
 * Only for test/domain/markdown-direct.test.ts, which compares the two paths: the direct renderer's
 * output, or undefined when the body needs the filter.
 */
export function renderDirectly(markdown: string): string | undefined {
  const { md, direct } = engine();
  const env = {};
  const tokens = md.parse(withoutByteOrderMark(markdown), env);
  return directlyRenderable(tokens)
    ? withHeadingAnchors(direct.render(tokens, md.options, env))
    : undefined;
}

/**
 * Only for test/domain/markdown-direct.test.ts: the pipeline every body took before the direct path,
 * markdown-it's own output through the allowlist filter.
 */
export function renderThroughFilter(markdown: string): string {
  return withHeadingAnchors(sanitizeHtml(engine().md.render(withoutByteOrderMark(markdown))));
}

// Identical bodies come back often (templates, short comments, an unchanged body sent again,
// remote issues refreshed), and both layers above are deterministic, so the last results are
// kept: a least-recently-used memo keyed by the source. Bounded in entries and in characters
// (source + HTML, 2 bytes each at most), so it never holds more than ~8 MiB.
const MEMO_MAX_ENTRIES = 1000;
const MEMO_MAX_CHARS = 4 * 1024 * 1024;
/** Larger bodies are rendered every time: one would crowd out hundreds of small ones. */
const MEMO_MAX_ENTRY_CHARS = 64 * 1024;
const rendered = new Map<string, string>();
let renderedChars = 0;

function remember(markdown: string, html: string): void {
  const size = markdown.length + html.length;
  if (size > MEMO_MAX_ENTRY_CHARS) return;
  // A copy: V8 may hold a trimmed or sliced string as a view into a much larger one (a whole
  // request body), which the memo would otherwise keep alive.
  rendered.set(Buffer.from(markdown, "utf16le").toString("utf16le"), html);
  renderedChars += size;
  for (const [source, output] of rendered) {
    if (rendered.size <= MEMO_MAX_ENTRIES && renderedChars <= MEMO_MAX_CHARS) break;
    rendered.delete(source);
    renderedChars -= source.length + output.length;
  }
}

/** Render user-supplied Markdown (GFM flavour) to sanitized HTML. */
export function renderMarkdown(markdown: string): string {
  const known = rendered.get(markdown);
  if (known !== undefined) {
    // Most recently used last: Map keeps insertion order.
    rendered.delete(markdown);
    rendered.set(markdown, known);
    return known;
  }
  const html = renderFresh(markdown);
  remember(markdown, html);
  return html;
}

/**
 * Renders many bodies at once (a board import): each distinct source once, in order. Bypasses
 * the memo above, whose 1,000 entries a document of thousands of distinct bodies would only
 * churn through, evicting the bodies that do repeat.
 */
export function renderMarkdownMany(sources: readonly string[]): string[] {
  const seen = new Map<string, string>([["", ""]]);
  return sources.map((source) => {
    let html = seen.get(source);
    if (html === undefined) {
      html = renderFresh(source);
      seen.set(source, html);
    }
    return html;
  });
}
