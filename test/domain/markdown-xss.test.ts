import assert from "node:assert/strict";
import { test } from "node:test";
import { type DefaultTreeAdapterMap, parse, parseFragment, serialize } from "parse5";
import { sanitizeHtml } from "../../src/domain/html-sanitizer.js";
import { renderMarkdown } from "../../src/domain/markdown.js";
import { ALLOWED_TAGS, assertSafe } from "./markdown-safety.js";

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
