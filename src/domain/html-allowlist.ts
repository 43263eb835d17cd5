// What a body's HTML may contain beyond bare tags, and how the kept parts are written: URL
// schemes for links and images, the attributes kept per tag and how each value is checked, and
// the two tags written from scratch (`a` and the task-list checkbox). Two layers apply these
// rules: the allowlist filter (html-sanitizer.ts), over HTML that contains raw HTML from a body,
// and the Markdown renderer (markdown-direct-rules.ts), which writes its markup this way from the
// start when a body has no raw HTML, so that the filter would leave it unchanged. One definition,
// so the two cannot drift apart; test/domain/markdown-direct.test.ts compares their output byte for byte.

/** Checks one attribute value: returns the value to write, or null to drop the attribute. */
export type Cleaner = (value: string) => string | null;

// URL schemes for href and src. URLs with no scheme (relative paths, #fragments, ?queries) are
// allowed: they cannot run code. Protocol-relative //host URLs are refused, as nobody writes
// them on purpose in Markdown.
export const LINK_SCHEMES: ReadonlySet<string> = new Set(["http", "https", "mailto"]);
const IMAGE_SCHEMES: ReadonlySet<string> = new Set(["http", "https"]);

/** The URL a browser would follow, or null when its scheme is not in `schemes`. */
export function safeUrl(value: string, schemes: ReadonlySet<string>): string | null {
  // Browsers ignore ASCII control characters and spaces inside a scheme ("java\tscript:"), and
  // the caller decodes entities first, so compare what the browser sees.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: exactly what browsers strip
  const squeezed = value.replace(/[\u0000-\u0020\u007f]+/g, "");
  // A URL has a scheme only when what comes before its first ':' is scheme-shaped (the URL
  // standard's rule): `foo):` is a relative path, as in a browser.
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(squeezed)?.[1];
  if (scheme !== undefined) return schemes.has(scheme.toLowerCase()) ? value.trim() : null;
  if (/^[/\\]{2}/.test(squeezed)) return null;
  return value.trim();
}

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

/** Alignment as HTML 4 wrote it (GitHub keeps it: centred logos and headers in READMEs). */
const ALIGN: Cleaner = (value) => {
  const plain = value.trim().toLowerCase();
  return /^(left|center|right|justify|top|middle|bottom)$/.test(plain) ? plain : null;
};
/**
 * A size as the browser reads a `width` or `height` (HTML's rules for parsing dimension values):
 * the leading number, and `%` right after it; the rest (`px`, `;`) is what the browser ignores,
 * so `100px;` is written `100`. A value it reads no number from (`auto`) drops the attribute.
 */
const SIZE: Cleaner = (value) => {
  const read = /^[ \t\n\f\r]*(\d{1,5}(?:\.\d{1,3})?)\d*(?:\.\d*)?(%?)/.exec(value);
  return read === null ? null : `${read[1]}${read[2]}`;
};
const SPAN: Cleaner = (value) => (/^[1-9]\d{0,2}$/.test(value.trim()) ? value.trim() : null);

/**
 * A `srcset` (a `<picture>`'s `<source>`): comma-separated candidates, each a URL an `img` src
 * could hold (http, https or relative) and at most one `1.5x` / `300w` descriptor. Anything else,
 * a URL with a comma included, drops the whole attribute.
 */
const SRCSET: Cleaner = (value) => {
  for (const candidate of value.split(",")) {
    const [url, descriptor, extra] = candidate.trim().split(/\s+/);
    if (url === undefined || url === "" || extra !== undefined) return null;
    if (descriptor !== undefined && !/^\d{1,5}(\.\d{1,3})?[wx]$/.test(descriptor)) return null;
    if (safeUrl(url, IMAGE_SCHEMES) === null) return null;
  }
  return value.trim();
};
/** A media query: words, numbers, parentheses, `:`, `,`, `/`, comparisons; nothing that loads. */
const MEDIA: Cleaner = (value) =>
  /^[\w\s(),:./<>=-]{1,200}$/.test(value) && !/url\s*\(/i.test(value) ? value.trim() : null;
const MIME_TYPE: Cleaner = (value) =>
  /^[\w.+-]{1,50}\/[\w.+-]{1,50}$/.test(value.trim()) ? value.trim() : null;
/** A heading's anchor, as markdown-heading-anchors.ts writes it (and rewrites it, always). */
const HEADING_ID: Cleaner = (value) => (/^user-content-[^\s"]*$/.test(value) ? value : null);

/**
 * The layout attributes GitHub keeps on any tag (`<p align="center">`, `<img width="120">`,
 * `<td width="30%">`), with plain values only. `a` and `input` are written whole, without them.
 */
const LAYOUT: ReadonlyMap<string, Cleaner> = new Map([
  ["align", ALIGN],
  ["width", SIZE],
  ["height", SIZE],
]);

/**
 * Per tag, the attributes kept beyond LAYOUT, and their cleaners. Everything not listed is
 * dropped, including every on* handler, style, name and any id but a heading's anchor. `a` and
 * `input` are written whole (`linkStartTag`, `checkboxTag`). Maps, not object literals: an
 * attribute named `constructor` or `__proto__` must find nothing here.
 */
const ATTRIBUTES: ReadonlyMap<string, ReadonlyMap<string, Cleaner>> = new Map(
  Object.entries({
    img: {
      src: (value: string) => safeUrl(value, IMAGE_SCHEMES),
      alt: keep,
      title: keep,
    },
    source: { srcset: SRCSET, media: MEDIA, type: MIME_TYPE },
    ol: { start: (value: string) => (/^\d{1,9}$/.test(value) ? value : null) },
    th: { colspan: SPAN, rowspan: SPAN },
    td: { colspan: SPAN, rowspan: SPAN },
    ...Object.fromEntries(["h1", "h2", "h3", "h4", "h5", "h6"].map((h) => [h, { id: HEADING_ID }])),
    details: { open: () => "" },
    abbr: { title: keep },
    // Highlighted fences (`hljs language-ts`) and plain ones (`language-x`); the info string is
    // user text, so only plain language names are kept.
    code: { class: classes(/^(hljs|language-[\w#+.-]+)$/) },
    // highlight.js token spans: `hljs-keyword`, and sub-scopes such as `hljs-title function_`.
    span: { class: classes(/^(hljs-[\w-]+|[a-z]+_{1,2})$/) },
  }).map(([tag, cleaners]) => [tag, new Map<string, Cleaner>(Object.entries(cleaners))]),
);

/** The value to write for attribute `name` of `tag` (decoded), or null to drop it. */
export function cleanAttribute(tag: string, name: string, value: string): string | null {
  const cleaner = ATTRIBUTES.get(tag)?.get(name) ?? LAYOUT.get(name);
  return cleaner === undefined || tag === "a" || tag === "input" ? null : cleaner(value);
}

const ATTRIBUTE_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  '"': "&quot;",
  "<": "&lt;",
  ">": "&gt;",
};

/**
 * Writes a checked, decoded value back, escaping every `&`: the browser then decodes exactly the
 * value that was checked, so no character reference can turn into a ':' after the check. (The
 * same four characters markdown-it's escapeHtml escapes, in the same way.) Whitespace other than
 * an inner space is written as a reference too (a title's line breaks, a leading space): the
 * browser reads the same value, and the filter reading this HTML again gets it whole instead of
 * turned into spaces and trimmed, so the output is a fixed point of the filter.
 */
export function attribute(name: string, value: string): string {
  const escaped = value
    .replace(/[&"<>]/g, (char) => ATTRIBUTE_ESCAPES[char] as string)
    .replace(/[^\S ]|^ | $/g, (space) => `&#${space.codePointAt(0)};`);
  return `${name}="${escaped}"`;
}

/**
 * A link's start tag, whatever the source said: only a safe href and the title are kept, and
 * every link opens in a new tab without handing it window.opener or a Referer, except a link
 * within the body (`#slug`, a heading's anchor: markdown-heading-anchors.ts), which stays in the
 * page as on GitHub.
 */
export function linkStartTag(
  href: string | undefined,
  title: string | undefined,
  anchor: { id?: string | undefined; name?: string | undefined } = {},
): string {
  const url = href === undefined ? null : safeUrl(href, LINK_SCHEMES);
  const parts = ["<a"];
  if (url !== null) parts.push(attribute("href", url));
  if (title !== undefined) parts.push(attribute("title", title));
  for (const [name, value] of [["id", anchor.id] as const, ["name", anchor.name] as const]) {
    const target = anchorTarget(value);
    if (target !== null) parts.push(attribute(name, target));
  }
  if (url === null || !url.startsWith("#"))
    parts.push('rel="noopener noreferrer"', 'target="_blank"');
  return `${parts.join(" ")}>`;
}

/**
 * An anchor a body names itself (`<a id="usage"></a>`, `<a name="usage">`), written as GitHub
 * writes it, `user-content-usage`: a body's ids can never be the page's own, and `#usage` finds it
 * the way it finds a heading (markdown-heading-anchors.ts). A value with whitespace is no anchor.
 */
function anchorTarget(value: string | undefined): string | null {
  if (value === undefined || !/^\S{1,200}$/.test(value)) return null;
  return value.startsWith("user-content-") ? value : `user-content-${value}`;
}

/** The only input a body may hold: a disabled checkbox, checked or not. */
export function checkboxTag(checked: boolean): string {
  return `<input type="checkbox" disabled${checked ? " checked" : ""} />`;
}

/**
 * An attribute value as the filter's tag parser (js-xss `parseAttr`) hands it on: trimmed, and,
 * once the parser has passed a whitespace character between attributes, with every whitespace
 * character turned into a space. Only highlight.js's class attributes reach the filter with raw
 * whitespace (markdown-raw-html.ts writes other values' whitespace as references).
 */
export function asFilterReadsIt(value: string, afterWhitespace: boolean): string {
  return (afterWhitespace ? value.replace(/\s/g, " ") : value).trim();
}
