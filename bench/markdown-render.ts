/**
 * The cost of rendering one ticket body to sanitized HTML, without the memo: what a create, an
 * edit or an import pays per distinct body. Prints microseconds per body over a corpus of
 * ~1 KB bodies written the way issues are (prose, lists, links, inline code, a fenced block with
 * a language every third body, inline HTML every fourth), in CPU microseconds per body. Then the
 * same over the bodies of the bench board (`issueBoardDocument`, 2,000 tickets and 4,800
 * comments: headings, task lists, a `ts` fence and a bare link each, no raw HTML).
 *
 *   npm run bench -- markdown [bodies] [rounds] [--compare <commit>]
 *
 * In process: this tree's renderer from its source. With --compare, that commit's build
 * (dist/domain/markdown.js of a temporary worktree, bench/builds.ts) renders the same bodies in
 * the same process, the two alternated round by round, with the ratio of their medians.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { renderMarkdownMany } from "../src/domain/markdown.js";
import { buildsToCompare, median, ROOT, removeCheckOut } from "./builds.js";
import { issueBoardDocument } from "./dataset.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { compare: { type: "string" } },
});
const count = Number(positionals[0] ?? 2000);
const rounds = Number(positionals[1] ?? 5);

type Render = (sources: readonly string[]) => unknown;
interface Renderer {
  name: string;
  render: Render;
}

function body(index: number): string {
  const parts = [
    `## Step ${index}\n`,
    `When the importer sees ticket #${index} it should keep **bold** and _emphasis_ and \`code\`.`,
    `Second line right after the first, as people type in issue trackers.\n`,
    `- first item with a link to https://example.com/issues/${index}`,
    `- second item with [a named link](https://example.com/${index})`,
    `- [ ] an open task\n- [x] a done task\n`,
    `> quoted reply from the reporter, ${index} times over\n`,
  ];
  if (index % 3 === 0) {
    parts.push(
      "```ts",
      `export function handler${index}(input: string): number {`,
      `  const value = input.trim().length * ${index}; // comment`,
      '  return value > 10 ? value : Number("42");',
      "}",
      "```\n",
    );
  }
  if (index % 4 === 0) {
    parts.push(
      `<details><summary>Logs ${index}</summary>\n\nPress <kbd>Ctrl</kbd>+<kbd>C</kbd>; H<sub>2</sub>O</details>\n`,
    );
  }
  parts.push(`| column | value |\n|---|---:|\n| a | ${index} |\n`);
  return parts.join("\n");
}

/**
 * Prints the median and minimum CPU microseconds per body of `rounds` renders of `bodies` by
 * each renderer, their rounds alternated.
 */
async function measure(label: string, bodies: readonly string[], renderers: Renderer[]) {
  const chars = bodies.reduce((sum, text) => sum + text.length, 0);
  // Warm-up: let V8 optimize each renderer before it is measured.
  for (const { render } of renderers) render(bodies.slice(0, 500).map((text) => `${text} `));
  const perBody = renderers.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    // A distinct suffix per round: every body is new to renderMarkdownMany's per-call dedup.
    const fresh = bodies.map((text) => `${text}\n${round}`);
    for (const [index, { render }] of renderers.entries()) {
      // CPU time of this thread, not wall time: on a shared machine the wall clock also counts
      // the time other processes held the core.
      const started = process.cpuUsage();
      await render(fresh);
      const used = process.cpuUsage(started);
      perBody[index]?.push((used.user + used.system) / bodies.length);
    }
  }
  const size = `${bodies.length} bodies of ~${Math.round(chars / bodies.length)} chars`;
  for (const [index, { name }] of renderers.entries()) {
    const figures = perBody[index] as number[];
    console.log(
      `${label}, ${name}: ${size}, ${rounds} rounds: median ${median(figures).toFixed(1)} us ` +
        `CPU/body, min ${Math.min(...figures).toFixed(1)}`,
    );
  }
  if (renderers.length === 2) {
    const [before, after] = perBody as [number[], number[]];
    console.log(
      `${label}: ${renderers[0]?.name} / this tree ${(median(before) / median(after)).toFixed(2)}`,
    );
  }
}

const checkouts: string[] = [];
try {
  const renderers: Renderer[] = [];
  for (const build of buildsToCompare(values.compare, checkouts)) {
    if (build.root === ROOT) {
      renderers.push({ name: build.name, render: renderMarkdownMany });
    } else {
      const url = pathToFileURL(join(build.root, "dist", "domain", "markdown.js")).href;
      const other = (await import(url)) as { renderMarkdownMany: Render };
      renderers.push({ name: build.name, render: other.renderMarkdownMany });
    }
  }
  await measure(
    "issue-style",
    Array.from({ length: count }, (_, index) => body(index)),
    renderers,
  );
  const board = issueBoardDocument({ tickets: 2000, comments: 4800 });
  await measure(
    "bench board",
    board.tickets.flatMap((ticket) => [
      ticket.bodyMarkdown,
      ...ticket.comments.map((comment) => comment.bodyMarkdown),
    ]),
    renderers,
  );
} finally {
  for (const checkout of checkouts) removeCheckOut(checkout);
}
