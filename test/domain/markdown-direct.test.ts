import assert from "node:assert/strict";
import { test } from "node:test";
import { issueBoardDocument, markdownBody, random } from "../../bench/dataset.js";
import { sanitizeHtml } from "../../src/domain/html-sanitizer.js";
import {
  renderDirectly,
  renderMarkdown,
  renderMarkdownMany,
  renderThroughFilter,
} from "../../src/domain/markdown.js";

// A body without raw HTML skips the allowlist filter: markdown-it's direct renderer
// (src/domain/markdown-direct-rules.ts) writes what the filter would leave. These tests prove it
// byte for byte over a large varied corpus: the direct output is a fixed point of the filter, and
// equal to what the old pipeline (markdown-it's own output, then the filter) gives. Each rule of
// the direct renderer is needed: without any one of them some input below comes out different.

/** Asserts both equalities for one source; returns whether it took the direct path. */
function assertSamePaths(source: string): boolean {
  const direct = renderDirectly(source);
  const filtered = renderThroughFilter(source);
  const context = `source: ${JSON.stringify(source)}`;
  assert.equal(renderMarkdown(source), filtered, context);
  if (direct === undefined) return false;
  assert.equal(direct, sanitizeHtml(direct), `not a fixed point of the filter\n${context}`);
  assert.equal(direct, filtered, `differs from the filtered pipeline\n${context}`);
  return true;
}

/**
 * Checks every source; at least `share` of them must take the direct path (a refused link can
 * leave a `<b>` of its title as raw HTML, which is fine: that body is filtered, as before).
 */
function assertDirect(sources: readonly string[], share = 1): void {
  let direct = 0;
  for (const source of sources) {
    if (assertSamePaths(source)) direct++;
    else if (share === 1) assert.fail(`expected no raw HTML: ${JSON.stringify(source)}`);
  }
  assert.ok(direct >= share * sources.length, `${direct} of ${sources.length} direct`);
}

// --- corpus ---------------------------------------------------------------------------------

// Link and image destinations: allowed, refused by the allowlist's scheme check, disguised
// schemes, entities, quotes, control characters, odd relative forms.
const DESTINATIONS = [
  "https://example.com/a?b=1&c=2",
  "HTTP://UPPER.example/Path",
  "http://x.example/%22quoted%22",
  "<https://example.com/a b>",
  "mailto:me@example.com",
  "MAILTO:ME@EXAMPLE.COM",
  "mailto:",
  "https:",
  "http:/x",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "java&#x09;script:alert(1)",
  "&#106;avascript:alert(1)",
  "javascript&colon;alert(1)",
  "javascript%3Aalert(1)",
  "<javascript:alert(1)>",
  "data:image/png;base64,iVBORw0KGgo=",
  "vbscript:msgbox(1)",
  "file:///etc/passwd",
  "ftp://files.example/x",
  "tel:+1234",
  "irc://chat.example",
  "//evil.example/x",
  "/\\evil.example",
  "\\\\evil.example",
  "/tickets/1",
  "../up/one",
  "#fragment",
  "?q=1&r=2",
  "a:b",
  "./a:b",
  "relative/path.png",
  "https://example.com/&amp;x",
  "https://example.com/&#x3A;&#58;&colon;",
  "https://example.com/%zz%41",
  "https://example.com/a(b)c",
  "https://example.com/\u00a0nbsp",
  "https://例え.jp/パス",
  "https://example.com/\u0001ctl",
  "https://example.com/'single'",
  "<>",
  "",
];
const TITLES = [
  "",
  ' "T"',
  " 'single \"double\"'",
  " (in parens)",
  ' "two\nlines"',
  ' "a\u00a0b\u2028c"',
  ' "  spaced  "',
  ' "&amp; &quot; &#x3A; &bogus;"',
  ' "\\"escaped\\" onmouseover=\\"x"',
  ' "<b>not html</b>"',
];
const ALTS = ["logo", "", "multi\nline alt", "*em* and `code` alt", "a\u00a0b", "  ", 'q"uote'];
const TEXTS = [
  "x",
  "two\nlines",
  "**strong** link",
  "`code` link",
  "![img](https://i.example/i.png)",
];

function linkForms(): string[] {
  const sources: string[] = [];
  for (const destination of DESTINATIONS) {
    for (const title of TITLES) {
      sources.push(`[x](${destination}${title})`);
      sources.push(`![alt](${destination}${title})`);
      sources.push(`[ref][r]\n\n[r]: ${destination || "<>"}${title}`);
    }
    for (const alt of ALTS) sources.push(`![${alt}](${destination})`);
    for (const text of TEXTS) sources.push(`[${text}](${destination})`);
    if (!destination.startsWith("<")) sources.push(`<${destination}>`, `see ${destination} here`);
  }
  return sources;
}

// Fences whose info string is a known language, an unknown one, or hostile text.
const INFO_STRINGS = [
  ...["", "ts", "TS", "Python", "sh", "c++", "C#", "cs", "html", "xml", "php", "markdown", "md"],
  ...["yaml", "diff", "json", "sql", "bash", "dockerfile", "go", "rust"],
  ...["nosuchlang", 'foo"bar', "foo&amp;bar", "a<b>", "&#x3A;", 'js title="x"', "{.class}"],
  ...["python3", "   ruby   ", "language-x", "hljs", "hljs-keyword", "`", "\u00a0ts"],
  ...["ts\u00a0extra", "c++ extra words", "x.y-z_w#+", "é", "x\u2028y", "cpp{1,3}"],
];
const CODE = [
  "const x = 1 < 2 && \"s\" > 'c';",
  '<script>alert(1)</script>\n<style>p { color: red }</style>\n<p onclick="x()">x</p>',
  "<?php echo '<b>' . $x; ?>\n<div>html</div>",
  "# Title\n\n~~~js\nnested()\n~~~\n<b>x</b>",
  "def f():\n    return f'{x!r}'  # comment",
  "SELECT * FROM t WHERE a = 'x' -- c",
  "- a\n+ b\n@@ -1 +1 @@",
  "key: value\nlist:\n  - 1",
  "class A<T> extends B { #p = 1; }",
  'fn main() { let r#x = "\\u{1F600}"; }',
  "",
];

function fences(): string[] {
  const sources: string[] = [];
  for (const info of INFO_STRINGS) {
    for (const code of CODE) {
      sources.push(`\`\`\`${info}\n${code}\n\`\`\``);
    }
    sources.push(`~~~${info}\ncode\n~~~`);
  }
  return sources;
}

const BLOCKS = [
  "# H1\n## H2 *em*\n### H3 `code`\n#### H4\n##### H5\n###### H6",
  "Setext\n======\n\nTwo\n---",
  "*em* _em_ **strong** __strong__ ***both*** ~~strike~~ `code` ``co`de``",
  "hard break  \nwith two spaces\\\nand a backslash\nand a soft one",
  "entities: &amp; &copy; &#x3A; &#58; &nbsp; &bogus; &lt;b&gt; &quot;q&quot;",
  "- a\n  - nested\n    - deeper\n- b\n\n* star\n+ plus",
  "0. zero\n1. one\n\n3. three\n4. four\n\n123456789. big\n\n007. seven",
  "- [ ] todo\n- [x] done\n- [X] also\n- plain\n- [ ]\n- [y] not a task",
  "3. [ ] ordered task\n4. [x] done",
  "1. [x] first\n2. [ ] second",
  "- [ ] loose task\n\n- [x] loose done\n\n  with a paragraph",
  "- [ ] parent\n  - [x] child\n    - [ ] grandchild",
  "> - [ ] quoted task\n> [x](https://q.example)",
  "| a | b | c | d |\n|:--|:-:|--:|---|\n| 1 | **2** | [l](https://l.example) | `|` |\n| \\| | x | y | z |",
  "| only |\n|---|\n| cell with https://auto.example |",
  "> quote\n> > nested quote\n\n---\n\n***",
  "    indented code <b>\n    line two",
  "bare links: www.example.com, https://x.example/p?q=1&r, me@example.net, mailto:a@b.example",
  "linkify odd: javascript:alert(1) ftp://files.example xmpp:x@y.example www.example.com/javascript:x",
  "escaped \\<div> and \\[not a link\\](x) and \\*not em\\*",
  "a < b > c & d \"q\" 'a' <3 <- -> 1<2",
  "\u00a0nbsp\u2028line separator\u0000nul\u200bzero width",
  "footnote-like [^1] and [unresolved][nope]",
  '![a *b*\nc](https://i.example/x.png "t\nt") text',
  "[![nested image](https://i.example/n.png)](https://outer.example)",
  "<https://auto.example/p?q=1&r=2> <mailto:a@b.example> <me@example.com>",
];

function generatedDocuments(count: number): string[] {
  const next = random(7);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const pieces = [...BLOCKS, ...linkForms(), ...fences()];
  return Array.from({ length: count }, () => {
    const parts = Array.from({ length: 2 + Math.floor(next() * 6) }, () => pick(pieces));
    return parts.join(next() < 0.5 ? "\n\n" : "\n");
  });
}

// The Markdown-only vectors of test/domain/markdown-xss.test.ts's XSS corpus.
const XSS_MARKDOWN = [
  "[x](javascript:alert(1))",
  "[x](JAVASCRIPT:alert(1))",
  "[x](java&#x09;script:alert(1))",
  "[x](&#106;avascript:alert(1))",
  "[x](javascript&colon;alert(1))",
  "[x](javascript%3Aalert(1))",
  "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "[x](vbscript:msgbox(1))",
  "[x](<javascript:alert(1)>)",
  "![x](javascript:alert(1))",
  "![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
  "![x](data:image/png;base64,iVBORw0KGgo=)",
  "[x][r]\n\n[r]: javascript:alert(1)",
  '![x][r]\n\n[r]: javascript:alert(1) "t"',
  "<javascript:alert(1)>",
  "<vbscript:msgbox(1)>",
  "<data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==>",
  "javascript:alert(1) and www.example.com/javascript:alert(1)",
  '[x](https://ok.example "a\\" onmouseover=\\"alert(1)")',
  '[x](https://ok.example/" onmouseover="alert(1))',
  '![a" onerror="alert(1)](https://img.example/i.png)',
  "&lt;script&gt;alert(1)&lt;/script&gt; &#60;script&#62;alert(1)&#60;/script&#62;",
  "`<script>alert(1)</script>`",
  "```html\n<script>alert(1)</script>\n```",
  '```"><script>alert(1)</script>\nx\n```',
  "- [ ] [x](javascript:alert(1))",
  "[x](//evil.example/steal)",
  "[x](/\\evil.example) [y](\\\\evil.example)",
  "```html\n</code></pre><script>alert(1)</script>\n```",
  '```js" onclick="alert(1)\nx\n```',
  '```" onmouseover="alert(1)\ncode\n```',
];

// --- tests ----------------------------------------------------------------------------------

test("bench dataset bodies: direct output equals the filtered pipeline's", () => {
  const document = issueBoardDocument({ tickets: 80, comments: 190 });
  const bodies = document.tickets.flatMap((ticket) => [
    ticket.bodyMarkdown,
    ...ticket.comments.map((comment) => comment.bodyMarkdown),
  ]);
  const next = random(3);
  for (let index = 0; index < 30; index++) bodies.push(markdownBody(index, next, 3000));
  assertDirect(bodies);
});

test("links, images, references and autolinks with odd destinations, titles and alt texts", () => {
  assertDirect(linkForms(), 0.95);
});

test("fences with known, unknown and hostile info strings, highlighted sub-languages", () => {
  assertDirect(fences());
});

test("headings, emphasis, breaks, entities, lists, task lists, tables, quotes, linkify", () => {
  assertDirect(BLOCKS);
});

test("the Markdown-only vectors of the XSS corpus", () => {
  assertDirect(XSS_MARKDOWN);
});

test("seeded mixes of all of the above", () => {
  assertDirect(generatedDocuments(400), 0.8);
});

// Random strings of Markdown's special characters and the odd pieces above, seeded. 1,000 in
// `npm test`; MARKDOWN_FUZZ_DOCS=100000 for a longer run.
const FUZZ_ATOMS = [
  ...["[", "]", "(", ")", "!", "<", ">", "*", "_", "`", "```", "~~", "|", "-", ":", "=", "/"],
  ...["\n", "\n\n", " ", "  \n", "\\", "&amp;", "&#x3A;", "&quot;", '"', "'", "#", "?", "%"],
  ...["1.", "3. ", "- [ ] ", "- [x] ", "> ", "    ", "---", "|---|:-:|", "![", "[r]: ", '"t"'],
  ...["http://", "https://a.example/", "mailto:", "javascript:", "www.x.example", "a@b.example"],
  ...["<https://q.example>", "\u00a0", "\u2028", "\t", "\u0001", "é", "ts", "html", "c++", "x"],
];

test("seeded random strings of Markdown syntax", () => {
  const next = random(29);
  const count = Number(process.env.MARKDOWN_FUZZ_DOCS ?? 1000);
  const sources = Array.from({ length: count }, () => {
    let source = "";
    const atoms = 5 + Math.floor(next() * 40);
    for (let index = 0; index < atoms; index++) {
      source += FUZZ_ATOMS[Math.floor(next() * FUZZ_ATOMS.length)];
    }
    return source;
  });
  assertDirect(sources, 0.95);
});

test("a body with raw HTML goes through the filter, as before", () => {
  const sources = [
    "<b>bold</b> [x](https://x.example)",
    "<details><summary>s</summary>\n\n- [ ] task\n</details>",
    "Vec<String> and <button>go</button>",
    '<a href="javascript:alert(1)">x</a> ![i](mailto:a@b.example)',
    "```ts\nconst a = 1;\n```\n<kbd>Ctrl</kbd>",
    "<!-- comment --> text",
  ];
  for (const source of sources) {
    assert.equal(assertSamePaths(source), false, source);
    assert.equal(renderMarkdownMany([source])[0], renderThroughFilter(source));
  }
});

test("the rules the direct path relies on are visible in its output", () => {
  // One example per rule, spelled out: what the filter makes of markdown-it's markup.
  assert.equal(
    renderDirectly("[a](https://a.example \"T\") ![i](mailto:x@y.example 'u') - x"),
    '<p><a href="https://a.example" title="T" rel="noopener noreferrer" target="_blank">a</a> <img alt="i" title="u" /> - x</p>\n',
  );
  assert.equal(
    renderDirectly("3. [x] done"),
    '<ol start="3">\n<li><input type="checkbox" disabled checked /> done</li>\n</ol>\n',
  );
  assert.equal(renderDirectly('```foo"bar\nx\n```'), "<pre><code>x\n</code></pre>\n");
  assert.equal(
    renderDirectly("```c++\nx\n```\n```nosuch+lang\ny\n```"),
    '<pre><code class="hljs language-c++">x\n</code></pre>\n<pre><code class="language-nosuch+lang">y\n</code></pre>\n',
  );
  // A sub-language span of highlight.js loses its `language-css` class, as the filter drops it.
  assert.match(renderDirectly("```html\n<style>p{}</style>\n```") ?? "", /<span><span class=/);
  assert.equal(
    renderDirectly("![a\nb](https://i.example/i.png)"),
    renderThroughFilter("![a\nb](https://i.example/i.png)"),
  );
  // Whitespace in a value is kept (written as a reference, which the filter reads back whole).
  assert.match(renderDirectly("![a\nb](https://i.example/i.png)") ?? "", /alt="a&#10;b"/);
});
