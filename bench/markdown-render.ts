/**
 * The cost of rendering one ticket body to sanitized HTML, without the memo: what a create, an
 * edit or an import pays per distinct body. Prints microseconds per body over a corpus of
 * ~1 KB bodies written the way issues are (prose, lists, links, inline code, a fenced block with
 * a language every third body, inline HTML every fourth), in CPU microseconds per body. Then the
 * same over the bodies of the bench board (`issueBoardDocument`, 2,000 tickets and 4,800
 * comments: headings, task lists, a `ts` fence and a bare link each, no raw HTML).
 *
 *   node --import tsx bench/markdown-render.ts [bodies] [rounds]
 */
import { renderMarkdownMany } from "../src/domain/markdown.js";
import { issueBoardDocument } from "./dataset.js";

const count = Number(process.argv[2] ?? 2000);
const rounds = Number(process.argv[3] ?? 5);

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

/** Prints the median and minimum CPU microseconds per body of `rounds` renders of `bodies`. */
function measure(label: string, bodies: readonly string[]): void {
  const chars = bodies.reduce((sum, text) => sum + text.length, 0);
  // Warm-up: let V8 optimize the renderer before it is measured.
  renderMarkdownMany(bodies.slice(0, 500).map((text) => `${text} `));
  const perBody: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // A distinct suffix per round: every body is new to renderMarkdownMany's per-call dedup.
    const fresh = bodies.map((text) => `${text}\n${round}`);
    // CPU time of this thread, not wall time: on a shared machine the wall clock also counts the
    // time other processes held the core.
    const started = process.cpuUsage();
    renderMarkdownMany(fresh);
    const used = process.cpuUsage(started);
    perBody.push((used.user + used.system) / bodies.length);
  }
  perBody.sort((a, b) => a - b);
  console.log(
    `${label}: ${bodies.length} bodies of ~${Math.round(chars / bodies.length)} chars, ` +
      `${rounds} rounds: median ${perBody[Math.floor(rounds / 2)]?.toFixed(1)} us CPU/body, ` +
      `min ${perBody[0]?.toFixed(1)}`,
  );
}

measure(
  "issue-style",
  Array.from({ length: count }, (_, index) => body(index)),
);
const board = issueBoardDocument({ tickets: 2000, comments: 4800 });
measure(
  "bench board",
  board.tickets.flatMap((ticket) => [
    ticket.bodyMarkdown,
    ...ticket.comments.map((comment) => comment.bodyMarkdown),
  ]),
);
