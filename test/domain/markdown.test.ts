import assert from "node:assert/strict";
import { test } from "node:test";
import { type DefaultTreeAdapterMap, parse, parseFragment, serialize } from "parse5";
import { sanitizeHtml } from "../../src/domain/html-sanitizer.js";
import { renderMarkdown } from "../../src/domain/markdown.js";

// --- helpers ---------------------------------------------------------------

// Every tag the renderer may emit. Anything else in the output is a failure.
const ALLOWED_TAGS = new Set(
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

function assertSafe(html: string, source: string): void {
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

// --- GFM features ----------------------------------------------------------

test("table renders with header, body and alignment (no style attribute)", () => {
  const html = renderMarkdown("| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |\n");
  assert.match(html, /<table>\s*<thead>\s*<tr>\s*<th align="left">a<\/th>/);
  assert.match(html, /<th align="center">b<\/th>/);
  assert.match(html, /<td align="right">3<\/td>/);
  assert.match(html, /<tbody>/);
  assert.doesNotMatch(html, /style=/);
});

test("strikethrough renders as <del>, as GitHub writes it", () => {
  assert.equal(renderMarkdown("~~gone~~ kept"), "<p><del>gone</del> kept</p>\n");
});

test("task list items render as disabled checkboxes", () => {
  const html = renderMarkdown("- [ ] todo\n- [x] done\n- [X] also done\n- plain item\n");
  assert.match(html, /<li><input type="checkbox" disabled \/> todo<\/li>/);
  assert.match(html, /<li><input type="checkbox" disabled checked \/> done<\/li>/);
  assert.match(html, /<li><input type="checkbox" disabled checked \/> also done<\/li>/);
  assert.match(html, /<li>plain item<\/li>/);
  assert.equal(html.match(/<input/g)?.length, 3);
});

test("autolinks: bare URL, www., e-mail and <angle> autolinks", () => {
  const html = renderMarkdown(
    "see https://example.com/a?b=1&c=2, www.example.org, me@example.net and <https://x.example>",
  );
  assert.match(
    html,
    /<a href="https:\/\/example\.com\/a\?b=1&amp;c=2"[^>]*>https:\/\/example\.com\/a\?b=1&amp;c=2<\/a>/,
  );
  assert.match(html, /<a href="http:\/\/www\.example\.org"[^>]*>www\.example\.org<\/a>/);
  assert.match(html, /<a href="mailto:me@example\.net"[^>]*>me@example\.net<\/a>/);
  assert.match(html, /<a href="https:\/\/x\.example"[^>]*>https:\/\/x\.example<\/a>/);
});

test("fenced code with a known language is highlighted on the server, content escaped", () => {
  const html = renderMarkdown("```ts\nif (a < b && c > d) {}\n```\n");
  assert.equal(
    html,
    '<pre><code class="hljs language-ts"><span class="hljs-keyword">if</span> (a &lt; b &amp;&amp; c &gt; d) {}\n</code></pre>\n',
  );
  // Aliases name the same grammar; the class keeps the name as written, lower-cased.
  assert.match(renderMarkdown("```Python\ndef f(): pass\n```"), /class="hljs language-python"/);
  assert.match(renderMarkdown("```sh\necho hi\n```"), /<span class="hljs-built_in">echo<\/span>/);
});

test("fenced code without a language, or an unknown one, is not highlighted (no guessing)", () => {
  assert.equal(
    renderMarkdown("```\nconst x = 1;\n```"),
    "<pre><code>const x = 1;\n</code></pre>\n",
  );
  assert.equal(
    renderMarkdown("```nosuchlang\nconst x = 1;\n```"),
    '<pre><code class="language-nosuchlang">const x = 1;\n</code></pre>\n',
  );
});

test("a single newline is a line break, as in GitHub, GitLab and Redmine issues", () => {
  assert.equal(renderMarkdown("first\nsecond"), "<p>first<br />\nsecond</p>\n");
  assert.equal(renderMarkdown("para\n\nnext"), "<p>para</p>\n<p>next</p>\n");
});

test("fenced code with a hostile info string loses the class, not the code", () => {
  const html = renderMarkdown('```" onmouseover="alert(1)\ncode\n```\n');
  assert.equal(html, "<pre><code>code\n</code></pre>\n");
});

test("other classes are stripped (code class is the only one kept)", () => {
  assert.doesNotMatch(renderMarkdown("- [ ] a\n- [x] b\n"), /class=/);
  assert.equal(
    sanitizeHtml('<p class="x"><code class="language-js evil">y</code></p>'),
    '<p><code class="language-js">y</code></p>',
  );
});

test("every link gets rel=noopener noreferrer and target=_blank", () => {
  const html = renderMarkdown(
    '[a](https://a.example "T") [b](mailto:b@example.com) [c](/tickets/1) https://d.example',
  );
  const links = html.match(/<a [^>]*>/g) ?? [];
  assert.equal(links.length, 4);
  for (const link of links) {
    assert.match(link, / rel="noopener noreferrer"/);
    assert.match(link, / target="_blank"/);
  }
  assert.match(
    html,
    /<a href="https:\/\/a\.example" title="T" rel="noopener noreferrer" target="_blank">a<\/a>/,
  );
  // The sanitizer overrides whatever rel/target an <a> already had.
  assert.equal(
    sanitizeHtml('<a href="https://x.example" rel="opener" target="_self">x</a>'),
    '<a href="https://x.example" rel="noopener noreferrer" target="_blank">x</a>',
  );
});

test("images keep http(s) sources and alt text", () => {
  assert.equal(
    renderMarkdown("![logo](https://img.example/l.png)"),
    '<p><img src="https://img.example/l.png" alt="logo" /></p>\n',
  );
});

test("ordered lists keep their start number, headings and quotes render", () => {
  const html = renderMarkdown(
    "# Title\n\n> quoted *em* **strong** `code`\n\n3. three\n4. four\n\n---\n",
  );
  assert.match(html, /<h1 id="user-content-title">Title<\/h1>/);
  assert.match(
    html,
    /<blockquote>\s*<p>quoted <em>em<\/em> <strong>strong<\/strong> <code>code<\/code><\/p>/,
  );
  assert.match(html, /<ol start="3">/);
  assert.match(html, /<hr \/>/);
});

test("plain text is escaped, not dropped", () => {
  assert.equal(renderMarkdown("a < b & c > d"), "<p>a &lt; b &amp; c &gt; d</p>\n");
  assert.equal(
    renderMarkdown("\"quotes\" and 'apostrophes'"),
    "<p>&quot;quotes&quot; and 'apostrophes'</p>\n",
  );
  assert.equal(renderMarkdown("1 <2 and x<y>z"), "<p>1 &lt;2 and x&lt;y&gt;z</p>\n");
});

test("the inline HTML issue trackers allow is kept", () => {
  assert.equal(
    renderMarkdown(
      "<b>bold</b> <i>it</i> <kbd>Ctrl</kbd>+<kbd>C</kbd> H<sub>2</sub>O x<sup>2</sup>",
    ),
    "<p><b>bold</b> <i>it</i> <kbd>Ctrl</kbd>+<kbd>C</kbd> H<sub>2</sub>O x<sup>2</sup></p>\n",
  );
  assert.equal(
    renderMarkdown("<details open>\n<summary>Logs</summary>\n\n**inside**\n</details>"),
    '<details open="">\n<summary>Logs</summary>\n<p><strong>inside</strong></p>\n</details>',
  );
  assert.equal(
    renderMarkdown('<img src="https://img.example/a.png" alt="a" width="120" height="40%">'),
    '<img src="https://img.example/a.png" alt="a" width="120" height="40%">',
  );
  assert.equal(renderMarkdown("line<br>next"), "<p>line<br>next</p>\n");
});

test("other HTML is shown as the text typed, script-like elements and their content too", () => {
  assert.equal(
    renderMarkdown("Vec<String> and <button>go</button>"),
    "<p>Vec&lt;String&gt; and &lt;button&gt;go&lt;/button&gt;</p>\n",
  );
  assert.equal(
    renderMarkdown("<script>alert(1)</script>kept"),
    "&lt;script&gt;alert(1)&lt;/script&gt;kept",
  );
  assert.equal(
    renderMarkdown('<img src="javascript:alert(1)" onerror="alert(1)" width="1 onload=x">'),
    // The width as the browser reads it: the leading number, nothing after it.
    '<img width="1">',
  );
});

test("a refused link target leaves the link's text, without an href (as GitHub does)", () => {
  const bare = '<p><a rel="noopener noreferrer" target="_blank">x</a></p>\n';
  assert.equal(renderMarkdown("[x](javascript:alert(1))"), bare);
  assert.equal(renderMarkdown("[x](//evil.example/p)"), bare);
  // A ':' after something that is no scheme is a relative path, as in a browser (spec 508).
  assert.match(renderMarkdown("[link](foo\\)\\:)"), /<a href="foo\):" /);
});

test("empty and whitespace-only input", () => {
  assert.equal(renderMarkdown(""), "");
  assert.equal(renderMarkdown("   \n\n"), "");
});

test("rendering is stateless between calls", () => {
  const src = "- [x] a\n\nhttps://example.com";
  assert.equal(renderMarkdown(src), renderMarkdown(src));
});

// --- XSS corpus --------------------------------------------------------------

// Each vector goes through renderMarkdown (the real path) and, separately,
// through the sanitizer alone, which must hold on its own even if markdown-it
// were ever configured to pass raw HTML through.
const B64_SCRIPT = "PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==";
const XSS_VECTORS: Array<[string, string]> = [
  ["script tag", "<script>alert(1)</script>"],
  ["script src, upper case", "<SCRIPT SRC=//evil.example/x.js></SCRIPT>"],
  ["mixed-case script", "<ScRiPt>alert(1)</sCrIpT>"],
  ["split script tag", "<scr<script>ipt>alert(1)</scr</script>ipt>"],
  ["nested/unclosed tags", "<<script>alert(1)//<</script>"],
  ["img onerror", "<img src=x onerror=alert(1)>"],
  ["img onerror, unclosed", '<img src=x onerror="alert(1)"'],
  ["img backtick attr", '<img src="x` `<script>alert(1)</script>"` `>'],
  ["svg onload", "<svg onload=alert(1)>"],
  ["svg script", "<svg><script>alert(1)</script></svg>"],
  ["svg xlink:href", '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>'],
  ["a href javascript:", '<a href="javascript:alert(1)">x</a>'],
  ["a href JAVASCRIPT:", '<a href="JAVASCRIPT:alert(1)">x</a>'],
  ["a href java&#x09;script:", '<a href="java&#x09;script:alert(1)">x</a>'],
  ["a href with leading control chars", '<a href="&#x01; javascript:alert(1)">x</a>'],
  [
    "a href fully entity-encoded",
    '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000049&#0000041">x</a>',
  ],
  ["a href &colon; entity", '<a href="javascript&colon;alert(1)">x</a>'],
  ["a href &#58 without semicolon", '<a href="javascript&#58alert(1)">x</a>'],
  ["a href &Tab; inside the scheme", '<a href="jav&Tab;ascript:alert(1)">x</a>'],
  ["a href &NewLine; inside the scheme", '<a href="java&NewLine;script:alert(1)">x</a>'],
  ["a href double-encoded &colon;", '<a href="javascript&amp;colon;alert(1)">x</a>'],
  ["a href data:text/html", `<a href="data:text/html;base64,${B64_SCRIPT}">x</a>`],
  ["a href vbscript:", '<a href="vbscript:msgbox(1)">x</a>'],
  ["a onclick", '<a href="https://ok.example" onclick="alert(1)">x</a>'],
  ["iframe src", '<iframe src="javascript:alert(1)"></iframe>'],
  ["iframe srcdoc", '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>'],
  ["object data", '<object data="javascript:alert(1)"></object>'],
  ["embed src", '<embed src="javascript:alert(1)">'],
  ["style tag", "<style>body{background:url(javascript:alert(1))}</style>"],
  ["style attribute", '<p style="background:url(javascript:alert(1))">x</p>'],
  ["css expression()", '<div style="width: expression(alert(1))">x</div>'],
  ["meta refresh", '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'],
  ["form action", '<form action="javascript:alert(1)"><input type=submit></form>'],
  ["button formaction", '<button formaction="javascript:alert(1)">x</button>'],
  ["input onfocus autofocus", '<input type="text" onfocus="alert(1)" autofocus>'],
  ["base href", '<base href="javascript:alert(1)//">'],
  ["link stylesheet", '<link rel="stylesheet" href="javascript:alert(1)">'],
  ["table background", '<table background="javascript:alert(1)"><tr><td>x</td></tr></table>'],
  ["details ontoggle", "<details open ontoggle=alert(1)>"],
  ["comment breakout", '<!--<img src="--><img src=x onerror=alert(1)//">'],
  ["noscript breakout", '<noscript><p title="</noscript><img src=x onerror=alert(1)>">'],
  ["math mXSS", "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>"],
  [
    "attribute breaking out of quotes",
    '<a href="https://ok.example/" onmouseover="alert(1)">x</a>',
  ],
  ["md link javascript:", "[x](javascript:alert(1))"],
  ["md link JAVASCRIPT:", "[x](JAVASCRIPT:alert(1))"],
  ["md link java&#x09;script:", "[x](java&#x09;script:alert(1))"],
  ["md link entity-encoded j", "[x](&#106;avascript:alert(1))"],
  ["md link &colon;", "[x](javascript&colon;alert(1))"],
  ["md link %-encoded scheme", "[x](javascript%3Aalert(1))"],
  ["md link data:text/html", `[x](data:text/html;base64,${B64_SCRIPT})`],
  ["md link vbscript:", "[x](vbscript:msgbox(1))"],
  ["md link in angle brackets", "[x](<javascript:alert(1)>)"],
  ["md image javascript:", "![x](javascript:alert(1))"],
  ["md image data:svg", "![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)"],
  ["md image data:png", "![x](data:image/png;base64,iVBORw0KGgo=)"],
  ["md reference link javascript:", "[x][r]\n\n[r]: javascript:alert(1)"],
  ["md reference image javascript:", '![x][r]\n\n[r]: javascript:alert(1) "t"'],
  ["autolink javascript:", "<javascript:alert(1)>"],
  ["autolink vbscript:", "<vbscript:msgbox(1)>"],
  ["autolink data:", `<data:text/html;base64,${B64_SCRIPT}>`],
  [
    "bare javascript: text (linkify)",
    "javascript:alert(1) and www.example.com/javascript:alert(1)",
  ],
  ["link title breaking out of quotes", '[x](https://ok.example "a\\" onmouseover=\\"alert(1)")'],
  ["link URL with quotes", '[x](https://ok.example/" onmouseover="alert(1))'],
  ["image alt breaking out of quotes", '![a" onerror="alert(1)](https://img.example/i.png)'],
  [
    "entity-escaped script text",
    "&lt;script&gt;alert(1)&lt;/script&gt; &#60;script&#62;alert(1)&#60;/script&#62;",
  ],
  ["script in code span", "`<script>alert(1)</script>`"],
  ["script in fenced code", "```html\n<script>alert(1)</script>\n```"],
  ["fence info breaking out", '```"><script>alert(1)</script>\nx\n```'],
  [
    "HTML inside task list item",
    "- [x] <img src=x onerror=alert(1)>\n- [ ] [x](javascript:alert(1))",
  ],
  ["HTML inside table cell", "| a |\n|---|\n| <svg onload=alert(1)> |"],
  ["protocol-relative link", '[x](//evil.example/steal) <a href="//evil.example">y</a>'],
  ["backslash protocol-relative", '<a href="/\\evil.example">x</a> <img src="\\\\evil.example/i">'],
  ["md link backslash protocol-relative", "[x](/\\evil.example) [y](\\\\evil.example)"],
  // Every tag and attribute kept for inline HTML, each with what an attacker would add to it.
  [
    "details open with handler",
    '<details open onclick="alert(1)"><summary onmouseover="alert(1)">s</summary></details>',
  ],
  ["summary with script inside", "<details><summary><script>alert(1)</script></summary></details>"],
  [
    "kbd, sub, sup with style and handlers",
    '<kbd style="x" onclick="alert(1)">k</kbd><sub onmouseover=alert(1)>s</sub><sup id=x>t</sup>',
  ],
  [
    "b, i, u, ins, del, strike, mark with handlers",
    '<b onclick=alert(1)>b</b><i onfocus=alert(1) tabindex=0>i</i><u>u</u><ins cite="javascript:alert(1)">n</ins><del datetime=x onclick=alert(1)>d</del><strike>s</strike><mark onmouseover=alert(1)>m</mark>',
  ],
  ["abbr title breaking out", '<abbr title="x&quot; onmouseover=&quot;alert(1)">a</abbr>'],
  ["q cite javascript:", '<q cite="javascript:alert(1)" onclick="alert(1)">q</q>'],
  [
    "samp, var, small with handlers",
    '<samp onclick=alert(1)>s</samp><var style="x">v</var><small onmouseover=alert(1)>m</small>',
  ],
  [
    "dl, dt, dd with handlers",
    "<dl onclick=alert(1)><dt style=x>t</dt><dd onmouseover=alert(1)>d</dd></dl>",
  ],
  [
    "div and span with style and handlers",
    '<div style="background:url(javascript:alert(1))" onclick="alert(1)">d</div><span onmouseover="alert(1)">s</span>',
  ],
  ["span class breaking out", '<span class="hljs-keyword&quot; onclick=&quot;alert(1)">s</span>'],
  ["span class not from highlight.js", '<span class="hljs-keyword evil-class">s</span>'],
  [
    "code class breaking out",
    '<code class="hljs language-js&quot; onclick=&quot;alert(1)">c</code>',
  ],
  [
    "ruby, rt, rp with handlers",
    "<ruby onclick=alert(1)>x<rp>(</rp><rt onmouseover=alert(1)>y</rt><rp>)</rp></ruby>",
  ],
  [
    "img width with a handler",
    '<img src="https://img.example/a.png" width="1 onerror=alert(1)" height="javascript:alert(1)">',
  ],
  [
    "align, width and height with handlers and styles",
    '<p align="center" onclick="alert(1)">p</p><div align="center;color:red" style="x">d</div><h1 align="left" id="evil">h</h1><td width="expression(alert(1))">c</td>',
  ],
  [
    "picture and source with hostile srcset and media",
    '<picture onclick="alert(1)"><source srcset="javascript:alert(1)" media="(min-width: 1px)"><source srcset="https://ok.example/a.png 1x, data:image/svg+xml,x 2x"><source srcset="//evil.example/a.png"><source srcset="java\tscript:alert(1)"><source srcset="https://ok.example/b.png" media="url(javascript:alert(1))" onerror="alert(1)"><source src="javascript:alert(1)" type="text/html;x"><img src="x" onerror="alert(1)"></picture>',
  ],
  [
    "anchors named by the body",
    '<a id="x&quot; onclick=&quot;alert(1)" name="__proto__">a</a><a name="top" href="javascript:alert(1)">b</a><a id="two words">c</a>',
  ],
  [
    "heading ids chosen by the body",
    '<h2 id="user-content-x&quot; onclick=&quot;alert(1)">a</h2><h3 id="__proto__">b</h3>\n\n## c <span id="user-content-d">d</span>',
  ],
  [
    "img srcset and data src",
    '<img src="data:image/svg+xml;base64,PHN2Zz4=" srcset="javascript:alert(1)">',
  ],
  [
    "img inside details summary",
    "<details><summary><img src=x onerror=alert(1)></summary></details>",
  ],
  [
    "highlighted fence with closing code tags",
    "```html\n</code></pre><script>alert(1)</script>\n```",
  ],
  ["highlighted fence with a hostile language alias", '```js" onclick="alert(1)\nx\n```'],
  // Raw HTML shown as the text typed (GFM's disallowed raw HTML and every tag not kept): the
  // escaped text must stay text, whatever is inside it.
  ["title with markup inside", "Set the <title><img src=x onerror=alert(1)></title> here"],
  ["textarea closed early", "<textarea></textarea><img src=x onerror=alert(1)>"],
  ["style with markup inside", "<style><img src=x onerror=alert(1)></style>"],
  ["xmp then svg", "<xmp></xmp><svg onload=alert(1)>"],
  ["noscript with markup inside", "<noscript><img src=x onerror=alert(1)></noscript>"],
  ["plaintext swallowing the rest", "<plaintext><script>alert(1)</script>\n\n**bold**"],
  [
    "noembed title breakout",
    '<noembed><img title="</noembed><img src onerror=alert(1)>"></noembed>',
  ],
  ["noframes breakout", "<noframes></noframes><img src=x onerror=alert(1)>"],
  ["escaped end tag in title", "<title>&lt;/title&gt;&lt;img src=x onerror=alert(1)&gt;</title>"],
  ["math style mXSS", "<math><mi><style><img src=x onerror=alert(1)></style></mi></math>"],
  ["svg style mXSS", "<svg><style><img src=x onerror=alert(1)></style></svg>"],
  ["select template", "<select><template><style><img src=x onerror=alert(1)></style></template>"],
  ["not a comment in GFM, with markup after", "<!--> <img src=x onerror=alert(1)> -->"],
  ["comment holding --", "a <!-- x -- y --><img src=x onerror=alert(1)>"],
  ["processing instruction", "a <?x <img src=x onerror=alert(1)> ?>"],
  ["CDATA", "a <![CDATA[<img src=x onerror=alert(1)>]]>"],
  ["unfinished tag at the end", '<div id="foo"\nonmouseover="alert(1)"'],
  ["unfinished tag before markup", '<div title="a\n\n<img src=x onerror=alert(1)>">'],
  ["attribute with line breaks", '<abbr title="a\n" onclick="alert(1)\n">x</abbr>'],
  [
    "attribute with a reference and a quote",
    '<abbr title="a&#10;&quot; onclick=alert(1)">x</abbr>',
  ],
];

test("backslashes count as slashes: /\\host and \\\\host are protocol-relative, so refused", () => {
  // Browsers read a backslash in a link as a slash, so these would leave for another host.
  assert.equal(
    sanitizeHtml('<a href="/\\evil.example">x</a><img src="\\\\evil.example/i" />'),
    '<a rel="noopener noreferrer" target="_blank">x</a><img />',
  );
  // In Markdown, markdown-it percent-encodes the backslash, which leaves a plain local path.
  assert.match(renderMarkdown("[x](/\\evil.example)"), /<a href="\/%5Cevil\.example" /);
});

test("an attribute value is written back so the browser decodes exactly what was checked", () => {
  // Every `&` is escaped on output: a double-encoded reference stays text, never a ':'.
  assert.equal(
    sanitizeHtml('<a href="javascript&amp;colon;alert(1)">x</a>'),
    '<a href="javascript&amp;colon;alert(1)" rel="noopener noreferrer" target="_blank">x</a>',
  );
  // References are decoded as the HTML standard says, missing semicolons included.
  assert.doesNotMatch(sanitizeHtml('<a href="javascript&#58alert(1)">x</a>'), /href=/);
  assert.equal(
    sanitizeHtml('<a href="https://x.example/?a=1&amp;b=2&c=3" title="&quot;q&quot;">x</a>'),
    '<a href="https://x.example/?a=1&amp;b=2&amp;c=3" title="&quot;q&quot;" rel="noopener noreferrer" target="_blank">x</a>',
  );
});

test("the safety checker itself rejects unsafe HTML", () => {
  const unsafe = [
    "<script>alert(1)</script>",
    "<IFRAME src=x></IFRAME>",
    '<p onclick="alert(1)">x</p>',
    '<p style="color:red">x</p>',
    '<a href="javascript:alert(1)">x</a>',
    '<a href="java&#x09;script:alert(1)">x</a>',
    '<a href="data:text/html,x">x</a>',
    '<img src="vbscript:x" />',
    '<a href="//evil.example">x</a>',
    '<input type="text" />',
    "<button>x</button>",
    '<span class="evil">x</span>',
    "<a href=javascript:alert(1)>x</a>",
  ];
  for (const html of unsafe) assert.throws(() => assertSafe(html, html), html);
});

test("XSS corpus has at least 30 vectors", () => {
  assert.ok(XSS_VECTORS.length >= 30);
});

for (const [name, source] of XSS_VECTORS) {
  test(`xss: ${name}`, () => {
    assertSafe(renderMarkdown(source), source);
    assertSafe(sanitizeHtml(source), source);
  });
}

// What the UI does with `bodyHtml`: a browser parses it inside a <div> (innerHTML). A browser may
// also serialize that DOM and parse it again (copy and paste, an editor, a later innerHTML read):
// what was text must still be text then. parse5 parses as the HTML standard says, as browsers do.
const divContext = (() => {
  const html = parse("<!DOCTYPE html><div></div>")
    .childNodes[1] as DefaultTreeAdapterMap["element"];
  const body = html.childNodes[1] as DefaultTreeAdapterMap["element"];
  return body.childNodes[0] as DefaultTreeAdapterMap["element"];
})();

function elementsOf(
  nodes: readonly DefaultTreeAdapterMap["childNode"][],
): DefaultTreeAdapterMap["element"][] {
  return nodes.flatMap((node) => ("tagName" in node ? [node, ...elementsOf(node.childNodes)] : []));
}

test("xss corpus, parsed by a browser's rules, serialized and parsed again, stays safe", () => {
  for (const [name, source] of XSS_VECTORS) {
    const once = serialize(parseFragment(divContext, renderMarkdown(source), {}));
    const again = parseFragment(divContext, once, {});
    assert.equal(serialize(again), once, `${name}: a second parse changes the DOM`);
    for (const element of elementsOf(again.childNodes)) {
      assert.ok(ALLOWED_TAGS.has(element.tagName), `${name}: <${element.tagName}> in ${once}`);
      for (const { name: attribute, value } of element.attrs) {
        assert.doesNotMatch(attribute, /^(on|style$|srcdoc$|formaction$)/, `${name}: ${once}`);
        if (attribute === "id" || attribute === "name") {
          assert.match(value, /^user-content-/, `${name}: ${once}`);
        }
      }
    }
  }
});

test("attribute names that are Object.prototype properties are dropped, never looked up", () => {
  // The per-tag attribute table once was a plain object: `constructor` found Object() and was
  // kept, `__proto__` found Object.prototype and threw (a 500 for the body's author).
  assert.equal(
    sanitizeHtml('<span constructor="x" class="hljs-keyword">s</span>'),
    '<span class="hljs-keyword">s</span>',
  );
  assert.equal(
    sanitizeHtml('<img __proto__="x" src="https://i.example/a.png">'),
    '<img src="https://i.example/a.png">',
  );
  assert.equal(
    renderMarkdown('<abbr hasownproperty="x" title="t">a</abbr>'),
    '<p><abbr title="t">a</abbr></p>\n',
  );
});
