// A differential test on real documents: the Markdown files `npm ci` puts in node_modules
// (READMEs, changelogs, docs of the installed packages), each rendered by tack and by GitHub's own
// parser, Debian's `cmark-gfm` (installed by .ci/run like chromium), with GitHub's allowlist and
// heading anchors applied to its output (test/helpers/github-reference.ts says how), then compared
// on visible text, block structure, inline structure and layout attributes.
//
// The corpus is built when the test runs, nothing of it is copied into the repository: every
// `*.md` / `*.markdown` file under node_modules (test fixtures left out), identical texts once,
// each recorded by its package, version, path and SHA-256. Up to SAMPLE of them are taken, in
// the order of their hashes, so the sample is the same for the same installed packages.
//
// Canonicalisation (besides the four parts of github-reference.ts):
//   - the text tack shows of a tag GitHub's allowlist does not keep (`Returns Promise<void>`:
//     tack shows `<void>` as typed, GitHub drops it) is the deliberate difference: a document
//     whose text differs only by such tag-shaped text (`<name ...>`, `</name>`) counts under
//     "unknown tags shown as typed", and its other parts are compared as usual;
//   - tack writes a single newline as `<br />`, and cmark-gfm runs with `--hardbreaks`, as
//     GitHub renders issue and comment bodies.
// Every other difference is a miss, listed by cause in the test's output, and fails the test
// unless its cause is in EXPLAINED (docs/api.md, "Markdown rendering", lists the same).

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { renderMarkdown } from "../../src/domain/markdown.js";
import { type Canonical, canonical, githubPage, tackPage } from "../helpers/github-reference.js";

const SAMPLE = 400;
const CMARK_GFM = process.env.TACK_CMARK_GFM ?? "/usr/bin/cmark-gfm";
const CMARK_ARGUMENTS = ["--unsafe", "--hardbreaks", "--validate-utf8"].concat(
  ["table", "strikethrough", "autolink", "tagfilter", "tasklist"].flatMap((name) => ["-e", name]),
);
const NODE_MODULES = fileURLToPath(new URL("../../node_modules/", import.meta.url));
const SKIPPED_FOLDERS = new Set(["test", "tests", "__tests__", "fixtures", "spec", ".bin"]);
/** Larger files are a data dump more than a document. */
const MAX_BYTES = 512 * 1024;

interface Document {
  label: string;
  hash: string;
  text: string;
}

/** The package a file belongs to: `name@version` of the nearest package.json above it. */
function packageOf(file: string): string {
  for (let folder = dirname(file); folder.startsWith(NODE_MODULES); folder = dirname(folder)) {
    const manifest = join(folder, "package.json");
    if (!existsSync(manifest)) continue;
    try {
      const { name, version } = JSON.parse(readFileSync(manifest, "utf8"));
      if (typeof name === "string") return `${name}@${version}`;
    } catch {
      // A package.json that is a fixture, not JSON: look further up.
    }
  }
  return "?";
}

function markdownFiles(folder: string, found: string[]): string[] {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name)) markdownFiles(path, found);
    else if (entry.isFile() && /\.(md|markdown)$/i.test(entry.name)) found.push(path);
  }
  return found;
}

/** The corpus: every distinct document, in the order of its hash. */
function corpus(): Document[] {
  const byHash = new Map<string, Document>();
  for (const file of markdownFiles(NODE_MODULES, [])) {
    if (statSync(file).size > MAX_BYTES) continue;
    const bytes = readFileSync(file);
    const hash = createHash("sha256").update(bytes).digest("hex");
    if (byHash.has(hash)) continue;
    const path = relative(NODE_MODULES, file);
    byHash.set(hash, {
      label: `${packageOf(file)} ${path} sha256:${hash.slice(0, 12)}`,
      hash,
      text: bytes.toString("utf8"),
    });
  }
  return [...byHash.values()].sort((a, b) => (a.hash < b.hash ? -1 : 1));
}

const TYPED_TAG = /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/g;

/** The causes of the differences between two canonical forms, with a first example of each. */
function differences(tack: Canonical, github: Canonical): Map<string, string> {
  const causes = new Map<string, string>();
  if (tack.text !== github.text) {
    const bare = (text: string) => text.replace(TYPED_TAG, "").replace(/\s+/g, " ").trim();
    causes.set(
      bare(tack.text) === bare(github.text) ? DELIBERATE : "visible text",
      firstDifference(tack.text, github.text),
    );
  }
  for (const part of ["blocks", "inlines", "layout"] as const) {
    const ours = tack[part].join(" ");
    const theirs = github[part].join(" ");
    if (ours === theirs) continue;
    // A heading's slug comes from its text: where the text differs only by tags shown as typed,
    // so may the heading ids, and that is the same deliberate difference.
    const withoutHeadingIds = (layout: string[]) =>
      layout.filter((entry) => !/^h[1-6]\[id=[^ \]]*\]$/.test(entry)).join(" ");
    const becauseOfTypedTags =
      part === "layout" &&
      causes.has(DELIBERATE) &&
      withoutHeadingIds(tack.layout) === withoutHeadingIds(github.layout);
    const onlyUnderline =
      part === "inlines" && tack.inlines.filter((tag) => tag !== "u").join(" ") === theirs;
    if (onlyUnderline) causes.set(UNDERLINE, firstDifference(ours, theirs));
    else if (!becauseOfTypedTags) causes.set(PART_NAMES[part], firstDifference(ours, theirs));
  }
  return causes;
}

const DELIBERATE = "unknown tags shown as typed (deliberate)";
const UNDERLINE = "<u> kept";
const PART_NAMES = {
  blocks: "block structure",
  inlines: "inline structure",
  layout: "layout attributes",
} as const;

function firstDifference(ours: string, theirs: string): string {
  let index = 0;
  while (index < ours.length && ours[index] === theirs[index]) index++;
  const from = Math.max(0, index - 40);
  return `tack ${JSON.stringify(ours.slice(from, index + 60))} / GitHub ${JSON.stringify(theirs.slice(from, index + 60))}`;
}

/** Causes of misses that tack keeps on purpose, and why. */
const EXPLAINED: ReadonlyMap<string, string> = new Map([
  [
    UNDERLINE,
    "tack keeps <u> as GitLab and Redmine do (bodies come from them too); GitHub drops the tag and keeps its text",
  ],
]);

/** cmark-gfm's HTML for `text`. */
function reference(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(CMARK_GFM, CMARK_ARGUMENTS, { stdio: ["pipe", "pipe", "inherit"] });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(Buffer.concat(chunks).toString("utf8"))
        : reject(new Error(`exit ${code}`)),
    );
    child.stdin.end(text);
  });
}

/** `map` over `items`, at most `width` at a time, results in order. */
async function inBatches<T, R>(items: readonly T[], width: number, map: (item: T) => Promise<R>) {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += width) {
    results.push(...(await Promise.all(items.slice(start, start + width).map(map))));
  }
  return results;
}

test("real documents render as GitHub shows them, but for unknown tags shown as typed", async (t) => {
  assert.ok(existsSync(CMARK_GFM), `${CMARK_GFM} is missing: apt-get install cmark-gfm`);
  const documents = corpus();
  assert.ok(documents.length >= 100, `only ${documents.length} documents under node_modules`);
  const sample = documents.slice(0, SAMPLE);
  const byCause = new Map<string, string[]>();
  let same = 0;
  // The reference renders run a few at a time, beside tack's renders on this thread.
  const references = await inBatches(sample, 8, (document) => reference(document.text));
  for (const [index, document] of sample.entries()) {
    const causes = differences(
      canonical(tackPage(renderMarkdown(document.text))),
      canonical(githubPage(references[index] as string)),
    );
    if (causes.size === 0) same++;
    for (const [cause, example] of causes) {
      const list = byCause.get(cause) ?? [];
      list.push(`${document.label}: ${example}`);
      byCause.set(cause, list);
    }
  }
  t.diagnostic(`${sample.length} of ${documents.length} documents compared; ${same} the same`);
  const unexplained: string[] = [];
  for (const [cause, misses] of [...byCause].sort()) {
    t.diagnostic(`${cause}: ${misses.length} documents`);
    const explained = EXPLAINED.get(cause);
    if (explained !== undefined) t.diagnostic(`  (explained: ${explained})`);
    for (const miss of misses) {
      t.diagnostic(`  ${miss}`);
      if (cause !== DELIBERATE && explained === undefined) unexplained.push(`${cause}: ${miss}`);
    }
  }
  assert.deepEqual(unexplained, []);
});

test("the comparison sees each kind of difference, and not the ones canonicalised away", () => {
  const compare = (tackHtml: string, cmarkHtml: string) => [
    ...differences(canonical(tackPage(tackHtml)), canonical(githubPage(cmarkHtml))).keys(),
  ];
  assert.deepEqual(compare("<p>a b</p>", "<p>a c</p>"), ["visible text"]);
  assert.deepEqual(compare("<p>a</p><p>b</p>", "<p>a</p>\n<div>b</div>"), ["block structure"]);
  assert.deepEqual(compare("<p><em>a</em></p>", "<p><strong>a</strong></p>"), ["inline structure"]);
  assert.deepEqual(compare("<p>a</p>", '<p align="center">a</p>'), ["layout attributes"]);
  assert.deepEqual(compare('<img width="100">', '<img width="100px;">'), []);
  assert.deepEqual(compare("<h2>a</h2>", "<h2>a</h2>"), ["layout attributes"]);
  assert.deepEqual(compare("<p>x&lt;T&gt;</p>", "<p>x<T></T></p>"), [DELIBERATE]);
  assert.deepEqual(
    compare(
      '<p>a<br />\nb <a href="#x" rel="noopener">c</a></p>',
      '<p>a<br />\nb <a href="#x">c</a></p>',
    ),
    [],
  );
});
