// What a body's HTML may contain beyond bare tags, and how the kept parts are written: URL
// schemes for links and images, the attributes kept per tag and how each value is checked, and
// the two tags written from scratch (`a` and the task-list checkbox). Two layers apply these
// rules: the allowlist filter (html-sanitizer.ts), over HTML that contains raw HTML from a body,
// and the Markdown renderer (markdown-direct-rules.ts), which writes its markup this way from the
// start when a body has no raw HTML, so that the filter would leave it unchanged. One definition,
// so the two cannot drift apart; test/markdown-direct.test.ts compares their output byte for byte.

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

const ALIGN: Cleaner = (value) => (/^(left|center|right)$/.test(value) ? value : null);
const PIXELS: Cleaner = (value) => (/^\d{1,4}%?$/.test(value.trim()) ? value.trim() : null);

/**
 * Per tag, the attributes kept and their cleaners. Everything not listed is dropped, including
 * every on* handler, style, id and name. `a` and `input` are written whole (`linkStartTag`,
 * `checkboxTag`). Maps, not object literals: an attribute named `constructor` or `__proto__`
 * must find nothing here.
 */
const ATTRIBUTES: ReadonlyMap<string, ReadonlyMap<string, Cleaner>> = new Map(
  Object.entries({
    img: {
      src: (value: string) => safeUrl(value, IMAGE_SCHEMES),
      alt: keep,
      title: keep,
      width: PIXELS,
      height: PIXELS,
    },
    ol: { start: (value: string) => (/^\d{1,9}$/.test(value) ? value : null) },
    th: { align: ALIGN },
    td: { align: ALIGN },
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
  return ATTRIBUTES.get(tag)?.get(name)?.(value) ?? null;
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
 * every link opens in a new tab without handing it window.opener or a Referer.
 */
export function linkStartTag(href: string | undefined, title: string | undefined): string {
  const url = href === undefined ? null : safeUrl(href, LINK_SCHEMES);
  const parts = ["<a"];
  if (url !== null) parts.push(attribute("href", url));
  if (title !== undefined) parts.push(attribute("title", title));
  parts.push('rel="noopener noreferrer"', 'target="_blank"');
  return `${parts.join(" ")}>`;
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
