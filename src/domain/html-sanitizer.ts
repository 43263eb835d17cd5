// The allowlist filter, built on js-xss, over the HTML markdown-it produced for a body that
// contains raw HTML. markdown-it passes raw HTML in a body through (markdown.ts), so this filter
// is what decides which tags and attributes reach a page: the Markdown constructs, the inline
// HTML GitHub, GitLab and Redmine allow in issue bodies, and highlight.js token spans. It holds on
// its own against raw hostile HTML (test/domain/markdown-xss.test.ts throws an XSS corpus at it
// directly).
// A body without raw HTML does not come here: markdown-direct-rules.ts writes it the way this
// filter would leave it, with the same rules (html-allowlist.ts: schemes, attributes per tag,
// how links and checkboxes are written), and test/domain/markdown-direct.test.ts holds the two equal.
//
// Why js-xss and not sanitize-html: both are allowlist filters; js-xss is configured once and
// reused, while sanitize-html rebuilds its option maps, parser and per-tag closures on every
// call. On Markdown bodies js-xss costs about a quarter as much, and a board import renders
// thousands of bodies in one request (docs/performance.md).

import type * as XssModule from "xss";
import { attribute, checkboxTag, cleanAttribute, linkStartTag } from "./html-allowlist.js";
import { htmlEntities, onFirstUse, requirePackage } from "./load-on-first-use.js";

/**
 * The tags our markdown-it setup emits, plus the inline HTML issue trackers keep in bodies.
 * Any other tag is shown as the text typed, escaped.
 */
const ALLOWED_TAGS = [
  ...["h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "blockquote"],
  ...["ul", "ol", "li", "em", "strong", "s", "code", "pre", "a", "img"],
  ...["table", "thead", "tbody", "tr", "th", "td"],
  "input", // task-list checkboxes only, rebuilt below
  // Inline HTML as GitHub, GitLab and Redmine allow it in issue text.
  ...["details", "summary", "kbd", "sub", "sup", "b", "i", "u", "ins", "del", "strike", "mark"],
  ...["abbr", "q", "samp", "var", "small", "dl", "dt", "dd", "div", "span", "ruby", "rt", "rp"],
  // A README's light and dark logo: `<source>` keeps only a safe srcset (html-allowlist.ts).
  ...["picture", "source"],
];

/**
 * An attribute value as the browser reads it: every character reference decoded the way the
 * HTML standard decodes attribute values (missing semicolons and legacy names included), by the
 * `entities` package that markdown-it itself uses.
 */
/**
 * js-xss, loaded with the rest of the renderer (load-on-first-use.ts). It is CommonJS and
 * attaches most of its helpers in a loop; they are all properties of its exports.
 */
const xss = onFirstUse(() => requirePackage("xss") as typeof XssModule);

function decoded(value: string): string {
  return htmlEntities().decodeHTMLAttribute(value);
}

/** The attributes of a start tag's source, lower-cased names, entities decoded. */
function attributesOf(tagHtml: string, tagName: string): Map<string, string> {
  const attributes = new Map<string, string>();
  xss().parseAttr(tagHtml.slice(tagName.length + 1, -1), (name, value) => {
    if (!attributes.has(name)) attributes.set(name, decoded(value));
    return "";
  });
  return attributes;
}

/**
 * `a` and `input` are written from scratch rather than filtered (html-allowlist.ts): a link keeps
 * only a safe href, its title and an anchor's id or name (prefixed `user-content-`), an input can
 * only be a disabled checkbox.
 */
function rebuiltTag(tag: string, tagHtml: string, closing: boolean): string | undefined {
  if (tag === "input") {
    if (closing) return "";
    return checkboxTag(attributesOf(tagHtml, tag).has("checked"));
  }
  if (tag === "a") {
    if (closing) return "</a>";
    const source = attributesOf(tagHtml, tag);
    return linkStartTag(source.get("href"), source.get("title"), {
      id: source.get("id"),
      name: source.get("name"),
    });
  }
  return undefined;
}

const filter = onFirstUse(
  () =>
    new (xss().FilterXSS)({
      whiteList: Object.fromEntries(ALLOWED_TAGS.map((tag) => [tag, []])),
      onTag: (tag, tagHtml, info) => rebuiltTag(tag, tagHtml, info.isClosing === true),
      onTagAttr: (tag, name, value) => {
        const kept = cleanAttribute(tag, name, decoded(value));
        // An empty string drops the attribute; undefined would hand it to js-xss's defaults.
        return kept === null ? "" : attribute(name, kept);
      },
      // Tags not allowed are shown as the text typed (`Vec<String>` typed without backticks stays
      // readable; `<script>`, `<style>`, `<title>` and the other tags GFM's "disallowed raw HTML"
      // names show as `&lt;title&gt;`, with their content as text): escaped, so a browser reads
      // them as text however often it parses and serializes the page again.
      stripIgnoreTag: false,
      allowCommentTag: false,
      css: false, // no style attribute is ever kept, so no CSS filter is needed
    }),
);

/** Cleans an HTML fragment with the allowlist above. */
export function sanitizeHtml(html: string): string {
  return filter().process(html);
}
