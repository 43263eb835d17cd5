// What GitHub shows for real documents beyond the GFM specification's examples: layout
// attributes, <picture>, single-tilde strikethrough, an autolink's text as typed, a leading
// byte-order mark, and heading anchors with in-page links. Each case states GitHub's output as
// tack writes it; test/domain/markdown-real-documents.test.ts compares whole documents with cmark-gfm.

import assert from "node:assert/strict";
import { test } from "node:test";
import { sanitizeHtml } from "../../src/domain/html-sanitizer.js";
import { renderDirectly, renderMarkdown, renderThroughFilter } from "../../src/domain/markdown.js";
import { headingSlug } from "../../src/domain/markdown-heading-anchors.js";

test("align, width and height are kept with plain values, on any kept tag", () => {
  assert.equal(renderMarkdown('<p align="center">x</p>'), '<p align="center">x</p>');
  assert.equal(
    renderMarkdown('<div align="CENTER">\n\n# Logo\n\n</div>'),
    '<div align="center">\n<h1 id="user-content-logo">Logo</h1>\n</div>',
  );
  assert.equal(
    renderMarkdown('<img src="https://example.com/a.png" width="120" height="40px">'),
    '<img src="https://example.com/a.png" width="120" height="40">',
  );
  // A size is written as the browser reads it: `100px;` is 100, `auto` no size at all.
  assert.equal(
    sanitizeHtml('<img width="100px;" height="auto"><td width=" 33.5%">'),
    '<img width="100"><td width="33.5%">',
  );
  assert.equal(
    renderMarkdown('<table><tr><td width="30%" colspan="2" align="right">a</td></tr></table>'),
    '<table><tr><td width="30%" colspan="2" align="right">a</td></tr></table>',
  );
  // Anything but a plain value drops the attribute, never the element or its text.
  assert.equal(
    sanitizeHtml(
      '<p align="center;color:red">a</p><img width="1 onerror=x" height="expression(1)"><td width="-1">b</td>',
    ),
    '<p>a</p><img width="1"><td>b</td>',
  );
  // A link is written whole: no layout attribute on it.
  assert.equal(
    sanitizeHtml('<a href="https://x.example" align="center" width="3">x</a>'),
    '<a href="https://x.example" rel="noopener noreferrer" target="_blank">x</a>',
  );
});

test("<picture> and <source> are kept, with a safe srcset, a plain media query and type", () => {
  const dark = "https://example.com/dark.png";
  assert.equal(
    renderMarkdown(
      `<picture><source media="(prefers-color-scheme: dark)" srcset="${dark}"><img src="l.png" alt="logo"></picture>`,
    ),
    `<p><picture><source media="(prefers-color-scheme: dark)" srcset="${dark}"><img src="l.png" alt="logo"></picture></p>\n`,
  );
  assert.equal(
    sanitizeHtml(
      '<source srcset="a.png 1x, https://x.example/b.png 2.5x, c.png 300w" type="image/webp">',
    ),
    '<source srcset="a.png 1x, https://x.example/b.png 2.5x, c.png 300w" type="image/webp">',
  );
  for (const srcset of [
    "javascript:alert(1)",
    "a.png 1x, data:image/png;base64,AAAA 2x",
    "//evil.example/a.png",
    "a.png 1x 2x",
    "a.png onerror",
    "",
  ]) {
    assert.equal(sanitizeHtml(`<source srcset="${srcset}">`), "<source>", srcset);
  }
  assert.equal(
    sanitizeHtml('<source media="url(x)" type="text/html;charset=x" src="a.png">'),
    "<source>",
  );
});

test("single and double tildes strike, as cmark-gfm's strikethrough extension does", () => {
  const cases: [string, string][] = [
    ["~approx~ done", "<p><del>approx</del> done</p>\n"],
    ["~~Hi~~ Hello, ~there~ world!", "<p><del>Hi</del> Hello, <del>there</del> world!</p>\n"],
    // Three or more tildes are text, and so are an opener and a closer of different lengths.
    ["This will ~~~not~~~ strike.", "<p>This will ~~~not~~~ strike.</p>\n"],
    ["~a~~ and ~~b~", "<p>~a~~ and ~~b~</p>\n"],
    ["~a~~b~~", "<p>~a<del>b</del></p>\n"],
    // Flanking: a tilde between spaces neither opens nor closes.
    ["1 ~ 2 ~ 3", "<p>1 ~ 2 ~ 3</p>\n"],
    ["~~*x*~~ and *~y~*", "<p><del><em>x</em></del> and <em><del>y</del></em></p>\n"],
    ["a~b~c", "<p>a<del>b</del>c</p>\n"],
  ];
  for (const [markdown, html] of cases) assert.equal(renderMarkdown(markdown), html, markdown);
});

test("an autolink shows its URL as typed, and a leading byte-order mark is no text", () => {
  assert.equal(
    renderMarkdown("<https://example.com/q?a=%5Bx%5D>"),
    '<p><a href="https://example.com/q?a=%5Bx%5D" rel="noopener noreferrer" target="_blank">https://example.com/q?a=%5Bx%5D</a></p>\n',
  );
  assert.equal(renderMarkdown("\uFEFF# Title\n\ntext"), renderMarkdown("# Title\n\ntext"));
  assert.equal(renderMarkdown("\uFEFF# Title"), '<h1 id="user-content-title">Title</h1>\n');
  // Only a leading one: inside text it stays what it is.
  assert.equal(renderMarkdown("a\uFEFFb"), "<p>a\uFEFFb</p>\n");
});

test("github-slugger's slugs: lower case, punctuation and symbols out, spaces to hyphens", () => {
  const cases: [string, string][] = [
    ["Hello World", "hello-world"],
    ["API: `GET /x` (v2)!", "api-get-x-v2"],
    ["foo_bar-baz", "foo_bar-baz"],
    ["  two  spaces ", "--two--spaces-"],
    ["Ünïcödé Ça va", "ünïcödé-ça-va"],
    ["日本語 テスト", "日本語-テスト"],
    ["emoji 🎉 party", "emoji--party"],
    ["x² and ½", "x-and-"],
    ["What's new?", "whats-new"],
  ];
  for (const [text, slug] of cases) assert.equal(headingSlug(text), slug, text);
});

test("headings carry GitHub's anchors: user-content- ids, repeats numbered, raw HTML too", () => {
  assert.equal(
    renderMarkdown("## Hello World\n\n[jump](#hello-world)"),
    '<h2 id="user-content-hello-world">Hello World</h2>\n<p><a href="#hello-world">jump</a></p>\n',
  );
  assert.equal(
    renderMarkdown("# Intro\n## Intro\n### Intro\n#### intro-1\n# !!!\n#"),
    '<h1 id="user-content-intro">Intro</h1>\n<h2 id="user-content-intro-1">Intro</h2>\n' +
      '<h3 id="user-content-intro-2">Intro</h3>\n<h4 id="user-content-intro-1-1">intro-1</h4>\n' +
      "<h1>!!!</h1>\n<h1></h1>\n",
  );
  // The text a reader sees: markup, code and links count by their text, an image's alt not.
  assert.equal(
    renderMarkdown(
      "## The `x` [API](https://a.example) &amp; ![logo](https://i.example/l.png) **v2**",
    ),
    '<h2 id="user-content-the-x-api---v2">The <code>x</code> <a href="https://a.example" rel="noopener noreferrer" target="_blank">API</a> &amp; <img src="https://i.example/l.png" alt="logo" /> <strong>v2</strong></h2>\n',
  );
  // Raw HTML headings get theirs; an id the body wrote is replaced, never kept.
  assert.equal(
    renderMarkdown('<h1 align="center" id="mine">My <b>Tool</b></h1>\n\n# My Tool'),
    '<h1 id="user-content-my-tool" align="center">My <b>Tool</b></h1>\n<h1 id="user-content-my-tool-1">My Tool</h1>\n',
  );
  // A heading left open in raw HTML gets no id; the next one does.
  assert.equal(
    renderMarkdown("<h1>a <h2>b</h2> c</h1>\n\n## d"),
    '<h1>a <h2 id="user-content-b">b</h2> c</h1>\n<h2 id="user-content-d">d</h2>\n',
  );
  // Each body numbers its own headings.
  assert.equal(renderMarkdown("# A"), '<h1 id="user-content-a">A</h1>\n');
});

test("an anchor the body names (`<a id>`, `<a name>`) is written user-content-, as GitHub does", () => {
  assert.equal(
    renderMarkdown('<a id="register"></a>\n\n## <a name="reg"></a>Register'),
    '<p><a id="user-content-register" rel="noopener noreferrer" target="_blank"></a></p>\n' +
      '<h2 id="user-content-register"><a name="user-content-reg" rel="noopener noreferrer" target="_blank"></a>Register</h2>\n',
  );
  // Whitespace makes no anchor; an id already prefixed is not prefixed twice.
  assert.equal(
    sanitizeHtml('<a id="two words" name="user-content-x">t</a>'),
    '<a name="user-content-x" rel="noopener noreferrer" target="_blank">t</a>',
  );
});

test("a link within the body stays in the page; any other still opens a new tab", () => {
  assert.equal(
    renderMarkdown('[a](#usage) [b](https://x.example/#usage) [c](/t/1#x) <a href="#z">d</a>'),
    '<p><a href="#usage">a</a> <a href="https://x.example/#usage" rel="noopener noreferrer" target="_blank">b</a> ' +
      '<a href="/t/1#x" rel="noopener noreferrer" target="_blank">c</a> <a href="#z">d</a></p>\n',
  );
});

test("both renderer paths give the same bytes for the new rules", () => {
  const sources = [
    "# Intro\n\n## Intro\n\n[x](#intro-1)",
    "## The `x` [API](https://a.example) &amp; **v2**\n\n~a~ ~~b~~ ~~~c~~~",
    "<https://example.com/q?a=%5Bx%5D> www.x.example/%5B",
    "\uFEFF# Title\n\n| a | b |\n|:-:|--:|\n| ~x~ | [y](#title) |",
    "Setext\n======\n\nSetext\n------",
  ];
  for (const source of sources) {
    const direct = renderDirectly(source);
    assert.ok(direct !== undefined, `expected the direct path: ${JSON.stringify(source)}`);
    assert.equal(direct, renderThroughFilter(source), JSON.stringify(source));
    assert.equal(direct, sanitizeHtml(direct), `not a fixed point: ${JSON.stringify(source)}`);
    assert.equal(renderMarkdown(source), direct);
  }
  // With raw HTML the filter runs, and the anchors are numbered across both kinds of heading.
  assert.equal(renderDirectly("<h2>a</h2>\n\n## a"), undefined);
  assert.match(renderMarkdown("<h2>a</h2>\n\n## a"), /user-content-a".*user-content-a-1"/s);
});
