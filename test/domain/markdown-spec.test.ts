// Bodies render as GitHub renders them: the CommonMark specification's own examples (the
// `commonmark-spec` package), then cases of our own for each GitHub extension (tables, task
// lists, strikethrough, extended autolinks, disallowed raw HTML), all through the real renderer
// and compared by one rule, test/helpers/spec-html.ts: DOM-equal after normalizing whitespace,
// the attributes the allowlist adds or removes, raw HTML it shows as the text typed, and a
// newline inside a paragraph allowed as <br>.

import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";
import { renderMarkdown } from "../../src/domain/markdown.js";
import { compareWithSpec } from "../helpers/spec-html.js";

interface SpecExample {
  markdown: string;
  html: string;
  section: string;
  number: number;
}

const specExamples = (createRequire(import.meta.url)("commonmark-spec") as { tests: SpecExample[] })
  .tests;

/**
 * The CommonMark examples tack renders differently, each for a reason of GitHub's: GitHub
 * follows GFM 0.29, whose extended autolinks link bare URLs and e-mail addresses, and whose
 * comment rule predates CommonMark 0.31's. docs/decisions.md lists them too.
 */
const GITHUB_DIFFERS: ReadonlyMap<number, string> = new Map([
  [602, "extended autolink: GitHub links the URL inside `<https://foo.bar/baz bim>`"],
  [606, "extended autolink: GitHub links the e-mail address in `<foo\\+@bar.example.com>`"],
  [608, "extended autolink: GitHub links the URL inside `< https://foo.bar >`"],
  [611, "extended autolink: GitHub links a bare `https://example.com`"],
  [612, "extended autolink: GitHub links a bare `foo@bar.example.com`"],
  [625, "GFM 0.29 comments: `<!-- a --\\nb -->` holds `--`, so GitHub shows it as text"],
  [626, "GFM 0.29 comments: `<!-->` and `<!--->` are no comments, so GitHub shows them"],
]);

/** The spec writes tabs as →. */
function tabs(text: string): string {
  return text.replace(/→/g, "\t");
}

test("the CommonMark examples render as the specification says, except where GitHub differs", () => {
  assert.ok(specExamples.length > 600, "the examples of the commonmark-spec package");
  const failures: string[] = [];
  const sameAsSpec = new Set<number>();
  for (const example of specExamples) {
    const result = compareWithSpec(tabs(example.html), renderMarkdown(tabs(example.markdown)));
    if (result.same) sameAsSpec.add(example.number);
    else if (!GITHUB_DIFFERS.has(example.number)) {
      failures.push(
        `example ${example.number} (${example.section}): ${JSON.stringify(example.markdown)}\n` +
          `  expected ${JSON.stringify(result.expected)}\n  rendered ${JSON.stringify(result.actual)}`,
      );
    }
  }
  assert.deepEqual(failures, []);
  // The list stays exact: an example that renders as the spec says is no deviation.
  for (const number of GITHUB_DIFFERS.keys()) {
    assert.ok(!sameAsSpec.has(number), `example ${number} now renders as the spec says`);
  }
});

/** Asserts that `markdown` renders as GitHub's HTML `github` by the comparison rule. */
function assertRendersAs(markdown: string, github: string): void {
  const result = compareWithSpec(github, renderMarkdown(markdown));
  assert.ok(
    result.same,
    `${JSON.stringify(markdown)}\n  expected ${result.expected}\n  rendered ${result.actual}`,
  );
}

test("tables, with alignment, escaped pipes and inline markup in cells", () => {
  assertRendersAs(
    "| a | b | c |\n|:--|:-:|--:|\n| `x\\|y` | **b** | 3 |\n| 4 |",
    '<table><thead><tr><th align="left">a</th><th align="center">b</th><th align="right">c</th></tr></thead>' +
      '<tbody><tr><td align="left"><code>x|y</code></td><td align="center"><strong>b</strong></td><td align="right">3</td></tr>' +
      '<tr><td align="left">4</td><td align="center"></td><td align="right"></td></tr></tbody></table>',
  );
  // A delimiter row of another width makes no table.
  assertRendersAs("| a | b |\n| --- |\n| c |", "<p>| a | b |\n| --- |\n| c |</p>");
});

test("task lists: checked, unchecked, and brackets that are no task", () => {
  assertRendersAs(
    "- [ ] to do\n- [x] done\n- [X] done too\n- [y] not a task\n-  [] nor this",
    '<ul><li><input type="checkbox" disabled> to do</li><li><input type="checkbox" disabled checked> done</li>' +
      '<li><input type="checkbox" disabled checked> done too</li><li>[y] not a task</li><li>[] nor this</li></ul>',
  );
});

test("strikethrough is <del>, as GitHub writes it", () => {
  assertRendersAs("~~Hi~~ Hello, world!", "<p><del>Hi</del> Hello, world!</p>");
  assert.equal(renderMarkdown("~~gone~~"), "<p><del>gone</del></p>\n");
  assertRendersAs("This ~~has a\n\nnew paragraph~~.", "<p>This ~~has a</p><p>new paragraph~~.</p>");
});

test("extended autolinks: www., http(s):// and e-mail, as GitHub cuts them", () => {
  const cases: [string, string][] = [
    ["www.commonmark.org", '<a href="http://www.commonmark.org">www.commonmark.org</a>'],
    ["see www.example.dev/x.", 'see <a href="http://www.example.dev/x">www.example.dev/x</a>.'],
    ["alice@example.dev", '<a href="mailto:alice@example.dev">alice@example.dev</a>'],
    [
      "hello@mail+xyz.example no, hello+xyz@mail.example yes",
      'hello@mail+xyz.example no, <a href="mailto:hello+xyz@mail.example">hello+xyz@mail.example</a> yes',
    ],
    ["a.b-c_d@a.b-", "a.b-c_d@a.b-"],
    // Trailing punctuation and unbalanced parentheses stay outside, balanced ones inside.
    [
      "(https://x.example/a_(b)) and https://x.example/q?a=1!",
      '(<a href="https://x.example/a_(b)">https://x.example/a_(b)</a>) and <a href="https://x.example/q?a=1">https://x.example/q?a=1</a>!',
    ],
    [
      "www.google.com/search?q=(business))+ok",
      '<a href="http://www.google.com/search?q=(business))+ok">www.google.com/search?q=(business))+ok</a>',
    ],
    // An entity-like ending stays outside; a real query string stays inside.
    [
      "www.google.com/search?q=commonmark&hl;",
      '<a href="http://www.google.com/search?q=commonmark">www.google.com/search?q=commonmark</a>&amp;hl;',
    ],
    ["www.x.example/a&b=1", '<a href="http://www.x.example/a&amp;b=1">www.x.example/a&amp;b=1</a>'],
    // A link ends at `<`.
    ["www.x.example/a<b", '<a href="http://www.x.example/a">www.x.example/a</a>&lt;b'],
    // Nothing else: no bare domains, no www. in a word, no underscore in the last labels.
    ["example.com and x.example.com", "example.com and x.example.com"],
    ["awww.example.com", "awww.example.com"],
    ["www.a_b.example", "www.a_b.example"],
    ["*www.x.example*", '<em><a href="http://www.x.example">www.x.example</a></em>'],
    // A URL with another scheme is linked only as GitHub would: its href is not kept.
    ["ftp://files.example/a", "<a>ftp://files.example/a</a>"],
  ];
  for (const [markdown, html] of cases) assertRendersAs(markdown, `<p>${html}</p>`);
  // Never inside a link or code.
  assertRendersAs(
    "[www.a.example](https://b.example) `www.c.example`",
    '<p><a href="https://b.example">www.a.example</a> <code>www.c.example</code></p>',
  );
});

test("disallowed raw HTML is shown as the text typed, content included", () => {
  for (const tag of [
    ...["title", "textarea", "style", "xmp", "iframe", "noembed", "noframes", "script"],
    // GFM's list, then tags outside it that the allowlist does not keep either.
    ...["plaintext", "noscript", "math", "svg", "template", "option", "button"],
  ]) {
    const html = renderMarkdown(`Set the <${tag}>x</${tag}> of the page`);
    assert.equal(html, `<p>Set the &lt;${tag}&gt;x&lt;/${tag}&gt; of the page</p>\n`, tag);
  }
  // GFM's own example (653), with tack keeping <strong> and <blockquote>.
  assertRendersAs(
    "<strong> <title> <style> <em>\n\n<blockquote>\n  <xmp> is disallowed.  <XMP> is also disallowed.\n</blockquote>",
    "<p><strong> &lt;title> &lt;style> <em></em></strong></p><strong><em><blockquote>" +
      "  &lt;xmp> is disallowed.  &lt;XMP> is also disallowed.</blockquote></em></strong>",
  );
  // A block of them: the script's text is there to read, and nothing of it runs.
  assert.equal(
    renderMarkdown("<script>\nalert(1)\n</script>\nokay"),
    "&lt;script&gt;\nalert(1)\n&lt;/script&gt;\n<p>okay</p>\n",
  );
  // An unfinished tag at the end of an HTML block is text as well.
  assert.equal(renderMarkdown('<div id="foo"\n*hi*'), "&lt;div id=&quot;foo&quot;\n*hi*");
});
