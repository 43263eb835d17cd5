import assert from "node:assert/strict";
import { test } from "node:test";
import { sanitizeHtml } from "../../src/domain/html-sanitizer.js";
import { renderMarkdown } from "../../src/domain/markdown.js";

// What Markdown renders to (src/domain/markdown.ts): the GitHub-flavoured features, links,
// images, code, the inline HTML kept and the HTML shown as text. The XSS corpus:
// markdown-xss.test.ts.

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
