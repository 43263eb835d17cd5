// Compares tack's HTML for a specification example with the HTML the specification expects, by
// one stated rule: the two are equal as DOM trees (parsed by parse5, as a browser parses them)
// after these normalizations, and only these:
//   - whitespace: runs of whitespace in text outside <pre> count as one (a newline stays a
//     newline), and whitespace next to a block element's tags does not count;
//   - a newline inside a paragraph may be a <br> in tack's HTML (bodies render a single newline
//     as a line break, as issue trackers do), never the other way round;
//   - attributes the allowlist filter adds or removes: `rel`/`target` on links, and on the
//     expected side every attribute the allowlist would drop (ids, styles, handlers, unsafe
//     URLs; html-allowlist.ts decides); on tack's side a heading's anchor id (GitHub's
//     `user-content-` ids, which the specification does not write);
//   - raw HTML tags the allowlist does not keep count as the text the user typed (tack shows
//     them escaped), and HTML comments count as nothing (tack drops them, the browser shows
//     nothing of them).
// Text is never normalized away otherwise: a lost or invented word is a difference.

import { type DefaultTreeAdapterMap, parseFragment } from "parse5";
import { cleanAttribute, LINK_SCHEMES, safeUrl } from "../../src/domain/html-allowlist.js";

type Node = DefaultTreeAdapterMap["childNode"];
type Element = DefaultTreeAdapterMap["element"];

/** The tags a body's HTML may hold (html-sanitizer.ts's allowlist). */
const KEPT_TAGS = new Set(
  [
    "h1 h2 h3 h4 h5 h6 p br hr blockquote ul ol li em strong s del code pre a img",
    "table thead tbody tr th td input details summary kbd sub sup b i u ins strike mark",
    "abbr q samp var small dl dt dd div span ruby rt rp picture source",
  ]
    .join(" ")
    .split(" "),
);
const VOID_TAGS = new Set(["br", "hr", "img", "input", "source"]);
const BLOCK_TAGS =
  "p|div|ul|ol|li|h[1-6]|blockquote|table|thead|tbody|tr|th|td|pre|hr|details|summary|dl|dt|dd";
const BREAK_BEFORE_BLOCK_TAG = new RegExp(`<br>(?=</?(?:${BLOCK_TAGS})\\b)`, "g");
const AROUND_BLOCK_TAG = new RegExp(`\\s*(</?(?:${BLOCK_TAGS})\\b[^>]*>)\\s*`, "g");

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The attributes that count on `element`, as ` name="value"`, sorted. */
function countedAttributes(element: Element, expected: boolean): string {
  const kept: string[] = [];
  for (const { name, value } of element.attrs) {
    let counted: string | null = value;
    if (element.tagName === "a") {
      if (name === "href") counted = safeUrl(value, LINK_SCHEMES);
      else if (name !== "title") counted = null;
    } else if (element.tagName === "input") {
      if (!["type", "checked", "disabled"].includes(name)) counted = null;
    } else if (expected) counted = cleanAttribute(element.tagName, name, value);
    else if (name === "id" && /^h[1-6]$/.test(element.tagName)) counted = null;
    else if (element.tagName === "code" && name === "class") {
      counted = value.replace(/^hljs /, ""); // highlighted code, see isHighlightSpan
    }
    if (counted !== null) kept.push(` ${name}="${escapeText(counted).replace(/"/g, "&quot;")}"`);
  }
  return kept.sort().join("");
}

/** `html` as the canonical string the comparison works on. */
function canonical(html: string, expected: boolean): string {
  const fragment = parseFragment(expected ? typedTagsAsText(html) : html);
  let out = "";
  let text = "";
  let inPre = 0;
  const flushText = () => {
    out += inPre > 0 ? escapeText(text) : escapeText(text).replace(/\s+/g, collapseWhitespace);
    text = "";
  };
  const walk = (nodes: readonly Node[]) => {
    for (const node of nodes) {
      if (node.nodeName === "#text") text += (node as DefaultTreeAdapterMap["textNode"]).value;
      else if (node.nodeName === "#comment") continue;
      else if ("tagName" in node) walkElement(node as Element);
    }
  };
  const walkElement = (element: Element) => {
    if (!expected && isHighlightSpan(element)) {
      walk(childrenOf(element));
      return;
    }
    flushText();
    out += `<${element.tagName}${countedAttributes(element, expected)}>`;
    if (VOID_TAGS.has(element.tagName)) return;
    if (element.tagName === "pre") inPre++;
    walk(childrenOf(element));
    flushText();
    if (element.tagName === "pre") inPre--;
    out += `</${element.tagName}>`;
  };
  walk(fragment.childNodes);
  flushText();
  const blocksBare = out.replace(AROUND_BLOCK_TAG, "$1").trim();
  // A line break that ends a block shows nothing (the newline it stands for was whitespace next
  // to a block tag).
  return expected ? blocksBare : blocksBare.replace(BREAK_BEFORE_BLOCK_TAG, "");
}

/**
 * The expected HTML with every piece of raw HTML tack does not keep turned into the text typed:
 * tags not on the allowlist, processing instructions, declarations, CDATA, and a tag left
 * unfinished at the end. (Comments stay comments: neither side shows them.)
 */
function typedTagsAsText(html: string): string {
  return html
    .replace(RAW_PIECE, (piece, name: string | undefined) =>
      name !== undefined && KEPT_TAGS.has(name.toLowerCase()) ? piece : escapeText(piece),
    )
    .replace(/<[A-Za-z/][^>]*$/, escapeText);
}
const ATTRIBUTE = `(?:\\s+[^\\s"'>/=]+(?:\\s*=\\s*(?:"[^"]*"|'[^']*'|[^\\s"'=<>\`]+))?)`;
const RAW_PIECE = new RegExp(
  `</?([A-Za-z][A-Za-z0-9-]*)${ATTRIBUTE}*\\s*/?>|<\\?[\\s\\S]*?\\?>|<![A-Za-z][^>]*>|<!\\[CDATA\\[[\\s\\S]*?\\]\\]>`,
  "g",
);

/** highlight.js's token spans: tack highlights fenced code, the specification does not. */
function isHighlightSpan(element: Element): boolean {
  return (
    element.tagName === "span" &&
    element.attrs.every(({ name, value }) => name === "class" && /^hljs-/.test(value))
  );
}

function childrenOf(element: Element): Node[] {
  if (element.tagName === "template") {
    return (element as DefaultTreeAdapterMap["template"]).content.childNodes;
  }
  return element.childNodes;
}

function collapseWhitespace(run: string): string {
  return run.includes("\n") ? "\n" : " ";
}

/** The canonical forms of both sides, and whether they count as the same rendering. */
export function compareWithSpec(
  expectedHtml: string,
  actualHtml: string,
): { same: boolean; expected: string; actual: string } {
  const expected = canonical(expectedHtml, true);
  const actual = canonical(actualHtml, false);
  return { same: sameUpToLineBreaks(expected, actual), expected, actual };
}

/** Equal, except that a newline of `expected` may be `<br>` and a newline in `actual`. */
function sameUpToLineBreaks(expected: string, actual: string): boolean {
  if (expected === actual) return true;
  const expectedParts = expected.split(/(<br>\n?|\n)/);
  const actualParts = actual.split(/(<br>\n?|\n)/);
  if (expectedParts.length !== actualParts.length) return false;
  return expectedParts.every((part, index) => {
    const other = actualParts[index];
    if (index % 2 === 0 || part === other) return part === other;
    return part === "\n" && other?.startsWith("<br>");
  });
}
