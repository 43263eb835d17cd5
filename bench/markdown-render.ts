/**
 * The cost of rendering one ticket body to sanitized HTML, without the memo: what a create, an
 * edit or an import pays per distinct body. Prints microseconds per body over a corpus of
 * ~1 KB bodies written the way issues are (prose, lists, links, inline code, a fenced block with
 * a language every third body, inline HTML every fourth), in CPU microseconds per body.
 *
 *   node --import tsx bench/markdown-render.ts [bodies] [rounds]
 */
import { renderMarkdownMany } from "../src/domain/markdown.js";

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

const bodies = Array.from({ length: count }, (_, index) => body(index));
const chars = bodies.reduce((sum, text) => sum + text.length, 0);
// Warm-up: let V8 optimize the renderer before it is measured.
renderMarkdownMany(bodies.slice(0, Math.min(500, count)).map((text) => `${text} `));
const perBody: number[] = [];
for (let round = 0; round < rounds; round++) {
  // A distinct suffix per round: every body is new to renderMarkdownMany's per-call dedup.
  const fresh = bodies.map((text) => `${text}\n${round}`);
  // CPU time of this thread, not wall time: on a shared machine the wall clock also counts the
  // time other processes held the core.
  const started = process.cpuUsage();
  renderMarkdownMany(fresh);
  const used = process.cpuUsage(started);
  perBody.push((used.user + used.system) / count);
}
perBody.sort((a, b) => a - b);
console.log(
  `${count} bodies of ~${Math.round(chars / count)} chars, ${rounds} rounds: ` +
    `median ${perBody[Math.floor(rounds / 2)]?.toFixed(1)} us CPU/body, min ${perBody[0]?.toFixed(1)}`,
);
