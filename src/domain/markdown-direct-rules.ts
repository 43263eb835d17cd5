// A second markdown-it renderer that writes a body's HTML exactly as the allowlist filter
// (html-sanitizer.ts) would leave it, so a body without raw HTML needs no filter pass
// (markdown.ts decides which renderer a body gets). markdown-it's own output is already safe by
// construction there: it escapes all text and attribute values. What the filter would still
// change is the markup around that text (a link's scheme included), and each rule below writes it
// the filter's way, with the rules the filter itself uses (html-allowlist.ts):
//   - every attribute goes through the filter's per-tag allowlist (`cleanAttribute`), with its
//     value as written (the filter gets whitespace in values as references, markdown-raw-html.ts,
//     so it reads the same value): this drops the task-list classes
//     on li/ul/ol, a fence's `language-x` class when x is not a plain language name, an image src
//     that is not http(s), and keeps ol start, th/td align, alt and title;
//   - a link's start tag is `linkStartTag` (href checked again, title, rel, target);
//   - a task-list checkbox is `checkboxTag`;
//   - highlight.js's token spans keep only the class names the filter keeps (a sub-language
//     span's `language-css` goes, as the filter drops it).
// test/domain/markdown-direct.test.ts proves the output equal, byte for byte, to the filter's output
// over the same tokens, and fails when any rule here is missing.

import type MarkdownIt from "markdown-it";
import type { Renderer, Token } from "markdown-it";
import {
  asFilterReadsIt,
  attribute,
  checkboxTag,
  cleanAttribute,
  linkStartTag,
} from "./html-allowlist.js";
import { htmlEntities } from "./load-on-first-use.js";

/**
 * Token types the direct renderer writes safely: those of our markdown-it setup with raw HTML
 * left out. A token of any other type (html_block, html_inline, or one a future plugin adds)
 * sends the whole body through the filter instead.
 */
const DIRECT_TOKEN_TYPES = new Set(
  [
    ...["paragraph", "heading", "blockquote", "bullet_list", "ordered_list", "list_item"],
    ...["table", "thead", "tbody", "tr", "th", "td", "em", "strong", "s", "link"],
  ]
    .flatMap((name) => [`${name}_open`, `${name}_close`])
    .concat(["inline", "text", "text_special", "softbreak", "hardbreak", "code_inline"])
    .concat(["code_block", "fence", "hr", "image", "checkbox_input"]),
);

/** True when every token (inline children included) is one the direct renderer writes. */
export function directlyRenderable(tokens: readonly Token[]): boolean {
  for (const token of tokens) {
    if (!DIRECT_TOKEN_TYPES.has(token.type)) return false;
    if (token.children !== null && !directlyRenderable(token.children)) return false;
  }
  return true;
}

/** ` name="value"` for each attribute the filter keeps on `tag`, in source order. */
function allowedAttributes(tag: string, attrs: readonly [string, string][] | null): string {
  if (attrs === null) return "";
  let html = "";
  for (let index = 0; index < attrs.length; index++) {
    const [name, value] = attrs[index] as [string, string];
    // String(): markdown-it stores some values as numbers (an ordered list's start).
    const kept = cleanAttribute(tag, name, String(value));
    if (kept !== null) html += ` ${attribute(name, kept)}`;
  }
  return html;
}

// Start tags with a class in highlighted code (`<code class="hljs language-ts">`, `<span
// class="hljs-keyword">`), rewritten once per distinct tag: highlight.js uses a few dozen.
const CLASSED_TAG = /<([a-z]+) class="([^"]*)">/g;
const filteredClassedTags = new Map<string, string>();

function filteredClassedTag(tagHtml: string, tag: string, value: string): string {
  let filtered = filteredClassedTags.get(tagHtml);
  if (filtered === undefined) {
    const kept = cleanAttribute(
      tag,
      "class",
      htmlEntities().decodeHTMLAttribute(asFilterReadsIt(value, false)),
    );
    filtered = kept === null ? `<${tag}>` : `<${tag} ${attribute("class", kept)}>`;
    if (filteredClassedTags.size < 1000) filteredClassedTags.set(tagHtml, filtered);
  }
  return filtered;
}

/**
 * A renderer with `md`'s rules (plugins' included) plus the rules above. `md.options.highlight`
 * must return "" or a whole `<pre>` block of escaped text and `<tag class="...">` markup.
 */
export function directRenderer(md: MarkdownIt): Renderer {
  const renderer = new (md.renderer.constructor as new () => Renderer)();
  Object.assign(renderer.rules, md.renderer.rules);
  const { escapeHtml, unescapeAll } = md.utils;

  renderer.renderAttrs = (token) => allowedAttributes(token.tag, token.attrs);

  renderer.rules.link_open = (tokens, index) => {
    const token = tokens[index] as Token;
    const href = token.attrGet("href");
    const title = token.attrGet("title");
    return linkStartTag(
      href === null ? undefined : String(href),
      title === null ? undefined : String(title),
    );
  };

  renderer.rules.checkbox_input = (tokens, index) =>
    checkboxTag((tokens[index] as Token).attrIndex("checked") >= 0);

  // markdown-it's fence rule, with its class attribute and the highlighted markup filtered.
  renderer.rules.fence = (tokens, index, options) => {
    const token = tokens[index] as Token;
    const info = token.info ? unescapeAll(token.info).trim() : "";
    let language = "";
    let languageAttributes = "";
    if (info) {
      const parts = info.split(/(\s+)/g);
      language = parts[0] ?? "";
      languageAttributes = parts.slice(2).join("");
    }
    const highlighted =
      options.highlight?.(token.content, language, languageAttributes) || escapeHtml(token.content);
    if (highlighted.startsWith("<pre")) {
      return `${highlighted.replace(CLASSED_TAG, filteredClassedTag)}\n`;
    }
    const attrs = token.attrs ? token.attrs.slice() : [];
    if (info) {
      const classIndex = token.attrIndex("class");
      const languageClass = `${options.langPrefix}${language}`;
      if (classIndex < 0) attrs.push(["class", languageClass]);
      else {
        const [name, value] = attrs[classIndex] as [string, string];
        attrs[classIndex] = [name, `${value} ${languageClass}`];
      }
    }
    return `<pre><code${allowedAttributes("code", attrs)}>${highlighted}</code></pre>\n`;
  };

  return renderer;
}
