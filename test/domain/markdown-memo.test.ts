import assert from "node:assert/strict";
import { test } from "node:test";
import { sanitizeHtml } from "../../src/domain/html-sanitizer.js";
import { renderMarkdown } from "../../src/domain/markdown.js";

// renderMarkdown keeps recent results (a bounded memo keyed by the source): a repeated body must
// render exactly as the first time, and no two different sources may share a result.

test("a body rendered again, also after many others, gives the same HTML", () => {
  const first = renderMarkdown("**first** body, see https://example.com");
  assert.equal(renderMarkdown("**first** body, see https://example.com"), first);
  for (let index = 0; index < 1500; index++) renderMarkdown(`body number ${index}`);
  assert.equal(renderMarkdown("**first** body, see https://example.com"), first);
  assert.equal(
    first,
    '<p><strong>first</strong> body, see <a href="https://example.com" rel="noopener noreferrer" target="_blank">https://example.com</a></p>\n',
  );
});

test("sources that differ only in ways a lossy key would merge keep their own HTML", () => {
  const composed = "caf\u00e9 *x*";
  const decomposed = "cafe\u0301 *x*";
  const loneSurrogate = "a\ud800b *x*";
  const replacement = "a\ufffdb *x*";
  for (const round of [1, 2]) {
    assert.notEqual(renderMarkdown(composed), renderMarkdown(decomposed), `round ${round}`);
    assert.ok(renderMarkdown(decomposed).includes("cafe\u0301"));
    assert.notEqual(renderMarkdown(loneSurrogate), renderMarkdown(replacement), `round ${round}`);
    assert.ok(renderMarkdown(replacement).includes("a\ufffdb"));
  }
});

test("a body too large to be remembered renders the same every time", () => {
  const large = `# Big\n\n${"word <script>x</script> ".repeat(5000)}`;
  const once = renderMarkdown(large);
  assert.equal(renderMarkdown(large), once);
  assert.ok(!once.includes("<script"));
  assert.equal(sanitizeHtml(once), once);
});
