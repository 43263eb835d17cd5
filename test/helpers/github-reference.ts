// What GitHub shows for a Markdown document, built from the reference renderer of GitHub's
// flavour (Debian's `cmark-gfm`, GitHub's own parser, with GitHub's extensions), and the
// canonical form in which test/domain/markdown-real-documents.test.ts compares it with tack's HTML.
//
// GitHub's page = cmark-gfm's HTML (raw HTML passed on, `--hardbreaks` as in issue and comment
// bodies, extensions table, strikethrough, autolink, tagfilter, tasklist), then GitHub's
// sanitizer and heading anchors, re-done here on the parsed tree (parse5, as a browser parses):
//   - elements not on GitHub's allowlist (ELEMENTS below) are removed with their tags only:
//     their content stays; comments go;
//   - the layout attributes `align`, `width` and `height` are kept as written, on any element;
//     an `a`'s `id` and `name` are kept prefixed `user-content-`, any other id goes;
//   - each h1-h6 gets `user-content-<slug>` from its text (github-slugger: lower case, all but
//     letters, marks, decimal digits, `_`, `-` and space removed, spaces to `-`, repeats
//     numbered `-1`, `-2`; an empty slug gives no id).
//
// The canonical form of a page, tack's or GitHub's, has four parts, compared one by one:
//   - text: the visible text, with a block element's start and end counting as whitespace (a
//     reader sees a block on lines of its own), whitespace runs as one space, trimmed;
//   - blocks: the block elements in document order, each with its depth in the tree;
//   - inlines: the inline elements in order, a link with its href (none when the allowlist
//     dropped it), an image with its src, a checkbox with its state; highlight.js's spans and
//     the attributes tack adds to links (rel, target) do not count;
//   - layout: each element carrying align, width, height, an id or an anchor's name, with their
//     values as the browser reads them: align lower-cased, a size by HTML's rules for dimension
//     values (`100px;` is 100; `auto`, no number, is no size).

import { type DefaultTreeAdapterMap, parseFragment } from "parse5";

type Node = DefaultTreeAdapterMap["childNode"];
type Element = DefaultTreeAdapterMap["element"];
type ParentNode = DefaultTreeAdapterMap["parentNode"];

/** GitHub's sanitizer allowlist of elements (html-pipeline's, as github.com applies it). */
const ELEMENTS = new Set(
  [
    "h1 h2 h3 h4 h5 h6 h7 h8 br b i strong em a pre code img tt div ins del sup sub p picture",
    "ol ul table thead tbody tfoot blockquote dl dt dd kbd q samp var hr ruby rt rp li tr td th",
    "s strike summary details caption figure figcaption abbr bdo cite dfn mark small source span",
    "time wbr input",
  ]
    .join(" ")
    .split(" "),
);

const BLOCKS = new Set(
  [
    "p h1 h2 h3 h4 h5 h6 ul ol li blockquote pre table thead tbody tfoot tr th td hr div",
    "details summary dl dt dd figure figcaption caption",
  ]
    .join(" ")
    .split(" "),
);
const LAYOUT = ["align", "width", "height", "id", "name"];

export interface Canonical {
  text: string;
  blocks: string[];
  inlines: string[];
  layout: string[];
}

function isElement(node: Node): node is Element {
  return "tagName" in node;
}

function childrenOf(node: ParentNode): Node[] {
  return (node as Element).tagName === "template"
    ? (node as DefaultTreeAdapterMap["template"]).content.childNodes
    : node.childNodes;
}

/** Removes what GitHub's sanitizer removes, in place: disallowed tags (content kept), comments. */
function sanitize(parent: ParentNode): void {
  const kept: Node[] = [];
  for (const node of childrenOf(parent)) {
    if (node.nodeName === "#comment") continue;
    if (!isElement(node)) {
      kept.push(node);
      continue;
    }
    sanitize(node);
    node.attrs = node.attrs.flatMap((attribute) => {
      if (attribute.name !== "id" && attribute.name !== "name") return [attribute];
      if (node.tagName !== "a") return [];
      return [{ name: attribute.name, value: `user-content-${attribute.value}` }];
    });
    if (ELEMENTS.has(node.tagName)) kept.push(node);
    else
      for (const child of childrenOf(node)) {
        child.parentNode = parent as Element;
        kept.push(child);
      }
  }
  parent.childNodes = kept;
}

export function textOf(node: ParentNode | Node): string {
  if (node.nodeName === "#text") return (node as DefaultTreeAdapterMap["textNode"]).value;
  if (!("childNodes" in node)) return "";
  return childrenOf(node as ParentNode)
    .map((child) => textOf(child))
    .join("");
}

/** github-slugger's slug, written again here apart from tack's (markdown-heading-anchors.ts). */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{Nd}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

function addHeadingIds(root: ParentNode): void {
  const occurrences = new Map<string, number>();
  const visit = (parent: ParentNode) => {
    for (const node of childrenOf(parent)) {
      if (!isElement(node)) continue;
      if (/^h[1-6]$/.test(node.tagName)) {
        node.attrs = node.attrs.filter(({ name }) => name !== "id");
        const base = slug(textOf(node));
        if (base !== "") {
          let result = base;
          while (occurrences.has(result)) {
            const count = (occurrences.get(base) ?? 0) + 1;
            occurrences.set(base, count);
            result = `${base}-${count}`;
          }
          occurrences.set(result, 0);
          node.attrs.unshift({ name: "id", value: `user-content-${result}` });
        }
      }
      visit(node);
    }
  };
  visit(root);
}

/** GitHub's page for cmark-gfm's HTML of a document, as a tree. */
export function githubPage(cmarkHtml: string): ParentNode {
  const root = parseFragment(cmarkHtml);
  sanitize(root);
  addHeadingIds(root);
  return root;
}

function attributeOf(element: Element, name: string): string | undefined {
  return element.attrs.find((attribute) => attribute.name === name)?.value;
}

/** The canonical form of a page (see the header). */
export function canonical(root: ParentNode): Canonical {
  const result: Canonical = { text: "", blocks: [], inlines: [], layout: [] };
  const walk = (parent: ParentNode, depth: number) => {
    for (const node of childrenOf(parent)) {
      if (node.nodeName === "#text") result.text += textOf(node);
      if (!isElement(node)) continue;
      const tag = node.tagName;
      const layout = LAYOUT.flatMap((name) => {
        const value = attributeOf(node, name);
        const read = value === undefined ? undefined : asBrowserReads(name, value);
        return read === undefined ? [] : [`${name}=${read}`];
      });
      if (layout.length > 0) result.layout.push(`${tag}[${layout.join(" ")}]`);
      if (BLOCKS.has(tag)) {
        result.blocks.push(`${depth}:${tag}`);
        result.text += " ";
      } else if (tag === "a") result.inlines.push(`a(${attributeOf(node, "href") ?? ""})`);
      else if (tag === "img") result.inlines.push(`img(${attributeOf(node, "src") ?? ""})`);
      else if (tag === "input") {
        result.inlines.push(`checkbox(${attributeOf(node, "checked") === undefined ? " " : "x"})`);
      } else if (tag !== "span") result.inlines.push(tag);
      walk(node, depth + 1);
      if (BLOCKS.has(tag)) result.text += " ";
    }
  };
  walk(root, 0);
  result.text = result.text.replace(/\s+/g, " ").trim();
  return result;
}

/** An attribute's value as the browser reads it, or undefined when it reads none. */
function asBrowserReads(name: string, value: string): string | undefined {
  if (name === "align") return value.trim().toLowerCase();
  if (name !== "width" && name !== "height") return value;
  const read = /^[ \t\n\f\r]*(\d+(?:\.\d+)?)(%?)/.exec(value);
  return read ? `${Number(read[1])}${read[2]}` : undefined;
}

/** Tack's page for its HTML of a document, as a tree. */
export function tackPage(html: string): ParentNode {
  return parseFragment(html);
}
