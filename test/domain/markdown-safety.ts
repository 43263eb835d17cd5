import assert from "node:assert/strict";

// The safety checker of the Markdown test files: what rendered HTML may hold, checked tag by tag
// (markdown-xss.test.ts runs every vector of its corpus through it and proves it rejects unsafe
// HTML).

// Every tag the renderer may emit. Anything else in the output is a failure.
export const ALLOWED_TAGS = new Set(
  [
    "h1 h2 h3 h4 h5 h6 p br hr blockquote ul ol li em strong s code pre a img",
    "table thead tbody tr th td input",
    // Inline HTML issue trackers keep in bodies.
    "details summary kbd sub sup b i u ins del strike mark abbr q samp var small dl dt dd",
    "div span ruby rt rp picture source",
  ]
    .join(" ")
    .split(" "),
);
// The only class names a body may carry: highlight.js markup and fence languages.
const ALLOWED_CLASSES: Record<string, RegExp> = {
  code: /^(hljs|language-[\w#+.-]+)$/,
  span: /^(hljs-[\w-]+|[a-z]+_{1,2})$/,
};

// The output escapes "<" and ">" everywhere outside markup (text and
// attribute values alike), so each "<...>" match is a real tag.
function tagsOf(html: string): string[] {
  return html.match(/<[^>]*>/g) ?? [];
}

function decodeEntities(s: string): string {
  return s
    .replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => String.fromCodePoint(Number.parseInt(h, 16)))
    .replace(/&#(\d+);?/g, (_, d: string) => String.fromCodePoint(Number.parseInt(d, 10)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

// Splits one tag into its name and attributes. The sanitizer always writes
// values double-quoted with inner quotes escaped, so this strict grammar must
// consume the whole tag: anything it cannot parse fails the test.
function parseTag(tag: string): { name: string; attrs: Array<[string, string]> } {
  const m = /^<\/?([a-z][a-z0-9]*)((?:\s[^\s"'>/=]+(?:="[^"]*")?)*)\s*\/?>$/i.exec(tag);
  assert.ok(m, `unparseable tag ${tag}`);
  const attrs: Array<[string, string]> = [];
  for (const a of (m[2] ?? "").matchAll(/\s([^\s"'>/=]+)(?:="([^"]*)")?/g)) {
    attrs.push([(a[1] ?? "").toLowerCase(), decodeEntities(a[2] ?? "")]);
  }
  return { name: (m[1] ?? "").toLowerCase(), attrs };
}

export function assertSafe(html: string, source: string): void {
  const ctx = `source: ${JSON.stringify(source)}\noutput: ${html}`;
  // No dangerous element anywhere (as markup; escaped text "&lt;script" is fine).
  assert.doesNotMatch(
    html,
    /<\s*\/?\s*(script|iframe|object|embed|style|form|meta|base|svg|math|link)\b/i,
    ctx,
  );
  for (const tag of tagsOf(html)) {
    const { name, attrs } = parseTag(tag);
    assert.ok(ALLOWED_TAGS.has(name), `unexpected tag ${tag}\n${ctx}`);
    // Attribute *names* are checked, not the raw text: the escaped text of a
    // blocked vector, or a quoted title/alt value, may read `onerror=`.
    for (const [attr, value] of attrs) {
      assert.doesNotMatch(attr, /^on/, ctx); // event handlers
      assert.doesNotMatch(attr, /^(style|formaction|srcdoc|xlink:href|background|action)$/, ctx);
      // A heading's anchor is the renderer's own (GitHub's `user-content-` ids); an anchor a
      // body names is prefixed the same way. No other id or name.
      if (attr === "id" || attr === "name") {
        assert.match(name, attr === "id" ? /^(h[1-6]|a)$/ : /^a$/, ctx);
        assert.match(
          value,
          name === "a" ? /^user-content-\S+$/ : /^user-content-[\p{L}\p{M}\p{Nd}_-]*$/u,
          ctx,
        );
      }
      if (attr === "srcset") {
        assert.equal(name, "source", ctx);
        for (const candidate of value.split(",")) {
          // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers ignore these in schemes
          const url = (candidate.trim().split(/\s+/)[0] ?? "").replace(/[\u0000-\u0020]+/g, "");
          if (/^[a-z][a-z0-9+.-]*:/i.test(url)) assert.match(url, /^https?:/i, ctx);
          assert.ok(!/^[/\\]{2}/.test(url), `protocol-relative srcset\n${ctx}`);
        }
      }
      if (attr === "media") assert.doesNotMatch(value, /url|[;{}"'\\]/i, ctx);
      if (attr === "class") {
        const allowed = ALLOWED_CLASSES[name];
        assert.ok(allowed, `class on <${name}>\n${ctx}`);
        for (const token of value.split(" ")) assert.match(token, allowed, ctx);
      }
      if (attr === "width" || attr === "height") {
        assert.match(value, /^\d{1,5}(\.\d{1,3})?(px|%)?$/i, ctx);
      }
      if (attr === "align")
        assert.match(value, /^(left|center|right|justify|top|middle|bottom)$/, ctx);
      if (attr !== "href" && attr !== "src") continue;
      // What a browser looks at: control characters and spaces are ignored.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers ignore these in schemes
      const url = value.replace(/[\u0000-\u0020]+/g, "").toLowerCase();
      assert.doesNotMatch(url, /^(javascript|vbscript|data|file):/, ctx);
      // Positive allowlist: http(s)/mailto, or no scheme at all (relative: what comes before
      // the first ':' is not scheme-shaped, so a browser reads no scheme either).
      if (/^[a-z][a-z0-9+.-]*:/.test(url)) assert.match(url, /^(https?:|mailto:)/, ctx);
      assert.ok(!url.startsWith("//"), `protocol-relative URL\n${ctx}`);
    }
    if (name === "input") {
      assert.match(tag, /^<input type="checkbox" disabled( checked)? \/>$/, ctx);
    }
  }
}
