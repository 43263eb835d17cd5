// The allowlist filter, built on js-xss, over the HTML markdown-it produced. markdown-it passes
// raw HTML in a body through (markdown.ts), so this filter is what decides which tags and
// attributes reach a page: the Markdown constructs, the inline HTML GitHub, GitLab and Redmine
// allow in issue bodies, and highlight.js token spans. It holds on its own against raw hostile
// HTML (test/markdown.test.ts throws an XSS corpus at it directly).
//
// Why js-xss and not sanitize-html: both are allowlist filters; js-xss is configured once and
// reused, while sanitize-html rebuilds its option maps, parser and per-tag closures on every
// call. On Markdown bodies js-xss costs about a quarter as much, and a board import renders
// thousands of bodies in one request (docs/performance.md).

import { decodeHTMLAttribute } from "entities";
import type * as XssModule from "xss";
import xssExports from "xss";

// js-xss is CommonJS and attaches most of its helpers in a loop, which Node's ES module loader
// cannot see as named exports; they are all properties of the default export.
const xss = xssExports as unknown as typeof XssModule;

/**
 * The tags our markdown-it setup emits, plus the inline HTML issue trackers keep in bodies.
 * Anything else is dropped, its text kept.
 */
const ALLOWED_TAGS = [
  ...["h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "blockquote"],
  ...["ul", "ol", "li", "em", "strong", "s", "code", "pre", "a", "img"],
  ...["table", "thead", "tbody", "tr", "th", "td"],
  "input", // task-list checkboxes only, rebuilt below
  // Inline HTML as GitHub, GitLab and Redmine allow it in issue text.
  ...["details", "summary", "kbd", "sub", "sup", "b", "i", "u", "ins", "del", "strike", "mark"],
  ...["abbr", "q", "samp", "var", "small", "dl", "dt", "dd", "div", "span", "ruby", "rt", "rp"],
];

/** Elements whose content is not text to show: dropped together with the element. */
const DROPPED_WITH_CONTENT = [
  ...["script", "style", "textarea", "option", "noscript", "template", "iframe"],
  ...["xmp", "noembed", "noframes", "title"],
];

/**
 * Per tag, the attributes kept and how each value is cleaned: a cleaner returns the value to
 * write, or null to drop the attribute. Everything not listed is dropped, including every on*
 * handler, style, id and name. `a` and `input` are rebuilt whole (see `rebuiltTag`).
 */
type Cleaner = (value: string) => string | null;
const ALIGN: Cleaner = (value) => (/^(left|center|right)$/.test(value) ? value : null);
const PIXELS: Cleaner = (value) => (/^\d{1,4}%?$/.test(value.trim()) ? value.trim() : null);
const ATTRIBUTES: Record<string, Record<string, Cleaner>> = {
  img: {
    src: (value) => safeUrl(value, IMAGE_SCHEMES),
    alt: keep,
    title: keep,
    width: PIXELS,
    height: PIXELS,
  },
  ol: { start: (value) => (/^\d{1,9}$/.test(value) ? value : null) },
  th: { align: ALIGN },
  td: { align: ALIGN },
  details: { open: () => "" },
  abbr: { title: keep },
  // Highlighted fences (`hljs language-ts`) and plain ones (`language-x`); the info string is
  // user text, so only plain language names are kept.
  code: { class: classes(/^(hljs|language-[\w#+.-]+)$/) },
  // highlight.js token spans: `hljs-keyword`, and sub-scopes such as `hljs-title function_`.
  span: { class: classes(/^(hljs-[\w-]+|[a-z]+_{1,2})$/) },
};

function keep(value: string): string {
  return value;
}

/** Keeps the class names matching `pattern`; drops the attribute when none does. */
function classes(pattern: RegExp): Cleaner {
  return (value) => {
    const kept = value.split(/\s+/).filter((name) => pattern.test(name));
    return kept.length > 0 ? kept.join(" ") : null;
  };
}

// URL schemes for href and src. URLs with no scheme (relative paths, #fragments, ?queries) are
// allowed: they cannot run code. Protocol-relative //host URLs are refused, as nobody writes
// them on purpose in Markdown.
const LINK_SCHEMES = new Set(["http", "https", "mailto"]);
const IMAGE_SCHEMES = new Set(["http", "https"]);

/** The URL a browser would follow, or null when its scheme is not in `schemes`. */
function safeUrl(value: string, schemes: ReadonlySet<string>): string | null {
  // Browsers ignore ASCII control characters and spaces inside a scheme ("java\tscript:"), and
  // entities are decoded before this point (`decoded`), so compare what the browser sees.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: exactly what browsers strip
  const squeezed = value.replace(/[\u0000-\u0020\u007f]+/g, "");
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(squeezed)?.[1];
  if (scheme !== undefined) return schemes.has(scheme.toLowerCase()) ? value.trim() : null;
  if (/^[^/?#]*:/.test(squeezed) || /^[/\\]{2}/.test(squeezed)) return null;
  return value.trim();
}

/**
 * An attribute value as the browser reads it: every character reference decoded the way the
 * HTML standard decodes attribute values (missing semicolons and legacy names included), by the
 * `entities` package that markdown-it itself uses.
 */
function decoded(value: string): string {
  return decodeHTMLAttribute(value);
}

const ATTRIBUTE_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  '"': "&quot;",
  "<": "&lt;",
  ">": "&gt;",
};

/**
 * Writes a checked, decoded value back, escaping every `&`: the browser then decodes exactly the
 * value that was checked, so no character reference can turn into a ':' after the check.
 */
function attribute(name: string, value: string): string {
  return `${name}="${value.replace(/[&"<>]/g, (char) => ATTRIBUTE_ESCAPES[char] as string)}"`;
}

/** The attributes of a start tag's source, lower-cased names, entities decoded. */
function attributesOf(tagHtml: string, tagName: string): Map<string, string> {
  const attributes = new Map<string, string>();
  xss.parseAttr(tagHtml.slice(tagName.length + 1, -1), (name, value) => {
    if (!attributes.has(name)) attributes.set(name, decoded(value));
    return "";
  });
  return attributes;
}

/**
 * `a` and `input` are written from scratch rather than filtered:
 * - every link opens in a new tab without handing it window.opener or a Referer, whatever the
 *   source said;
 * - an input can only be a disabled checkbox, checked or not.
 */
function rebuiltTag(tag: string, tagHtml: string, closing: boolean): string | undefined {
  if (tag === "input") {
    if (closing) return "";
    const checked = attributesOf(tagHtml, tag).has("checked");
    return `<input type="checkbox" disabled${checked ? " checked" : ""} />`;
  }
  if (tag === "a") {
    if (closing) return "</a>";
    const source = attributesOf(tagHtml, tag);
    const href = source.get("href");
    const url = href === undefined ? null : safeUrl(href, LINK_SCHEMES);
    const title = source.get("title");
    const parts = ["<a"];
    if (url !== null) parts.push(attribute("href", url));
    if (title !== undefined) parts.push(attribute("title", title));
    parts.push('rel="noopener noreferrer"', 'target="_blank"');
    return `${parts.join(" ")}>`;
  }
  return undefined;
}

const filter = new xss.FilterXSS({
  whiteList: Object.fromEntries(ALLOWED_TAGS.map((tag) => [tag, []])),
  onTag: (tag, tagHtml, info) => rebuiltTag(tag, tagHtml, info.isClosing === true),
  onTagAttr: (tag, name, value) => {
    const clean = ATTRIBUTES[tag]?.[name];
    const kept = clean?.(decoded(value)) ?? null;
    // An empty string drops the attribute; undefined would hand it to js-xss's defaults.
    return kept === null ? "" : attribute(name, kept);
  },
  // Tags not allowed are shown as text (`Vec<String>` typed without backticks stays readable).
  stripIgnoreTag: false,
  stripIgnoreTagBody: DROPPED_WITH_CONTENT,
  allowCommentTag: false,
  css: false, // no style attribute is ever kept, so no CSS filter is needed
});

/** Cleans an HTML fragment with the allowlist above. */
export function sanitizeHtml(html: string): string {
  return filter.process(html);
}
