/**
 * `npm run bench -- transfer [--compare <commit>] [--rounds N] [--exports N]`: what a whole
 * board in one request costs. Each round starts a fresh server (of each build, alternated, with
 * --compare) and, 2 s after its start line, imports the rich and then the modest 5,000-ticket
 * document of bench/documents.ts twice each, then exports the first rich board `--exports`
 * times (default 2), each after a new comment on one of its tickets so that no export is an
 * answer kept from before. Per operation: time to first byte (upload plus all of the server's
 * work, its serialization of the answer included) and the server's CPU (all threads, /proc).
 * Rounds default to 4 with --compare, 1 without. With the runner's --profile, this tree's
 * servers run under `node --cpu-prof` (the profile of imports and fresh exports).
 */
import { parseArgs } from "node:util";
import { type BuildRoot, buildsToCompare, median, removeCheckOut, spread } from "./builds.js";
import { boardDocument, modestBoardDocument } from "./documents.js";
import { Client, cpuMs, startTack } from "./lib.js";
import { printTable } from "./report.js";

const IMPORTS = [
  ["import rich, first", "rich"],
  ["import rich, second", "rich"],
  ["import modest, third", "modest"],
  ["import modest, fourth", "modest"],
] as const;

function options() {
  const { values } = parseArgs({
    options: {
      compare: { type: "string" },
      rounds: { type: "string" },
      exports: { type: "string", default: "2" },
    },
  });
  const rounds = Number(values.rounds ?? (values.compare ? 4 : 1));
  const exports = Number(values.exports);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds must be an integer >= 1");
  if (!Number.isInteger(exports) || exports < 0) throw new Error("--exports must be >= 0");
  return { rounds, exports, compare: values.compare };
}

type Recorder = (build: string, operation: string, firstByteMs: number, cpu: number) => void;

async function oneRound(
  build: BuildRoot,
  documents: { rich: unknown; modest: unknown },
  exports: number,
  record: Recorder,
): Promise<void> {
  const tack = await startTack([], build.root);
  const client = new Client(tack.url, 1);
  const cpu = () => cpuMs(tack.pid) ?? Number.NaN;
  try {
    let firstBoard: { boardId: number; ticketId: number } | undefined;
    for (const [label, document] of IMPORTS) {
      const before = cpu();
      const result = await client.okResult(
        { method: "POST", path: "/api/boards/import", body: documents[document] },
        201,
      );
      record(build.name, label, result.firstByteAt - result.sentAt, cpu() - before);
      firstBoard ??= { boardId: result.body.board.id, ticketId: result.body.tickets[0].id };
    }
    for (let i = 1; i <= exports && firstBoard; i++) {
      await client.ok(
        {
          method: "POST",
          path: `/api/tickets/${firstBoard.ticketId}/comments`,
          body: { bodyMarkdown: `export ${i}` },
        },
        201,
      );
      const before = cpu();
      const result = await client.okResult({ path: `/api/boards/${firstBoard.boardId}/export` });
      record(
        build.name,
        "export rich, after a change",
        result.firstByteAt - result.sentAt,
        cpu() - before,
      );
    }
  } finally {
    client.close();
    await tack.stop();
  }
}

async function main(): Promise<void> {
  const { rounds, exports, compare } = options();
  const documents = { rich: boardDocument(5000), modest: modestBoardDocument(5000) };
  const checkouts: string[] = [];
  try {
    const builds = buildsToCompare(compare, checkouts);
    const firstByte = new Map<string, number[]>();
    const serverCpu = new Map<string, number[]>();
    const operations: string[] = [];
    const add = (map: Map<string, number[]>, key: string, value: number) =>
      map.set(key, [...(map.get(key) ?? []), value]);
    for (let round = 1; round <= rounds; round++) {
      for (const build of builds) {
        await oneRound(build, documents, exports, (name, operation, ms, cpu) => {
          if (!operations.includes(operation)) operations.push(operation);
          add(firstByte, `${name}|${operation}`, ms);
          add(serverCpu, `${name}|${operation}`, cpu);
        });
      }
      console.log(`round ${round} of ${rounds} done`);
    }
    const names = builds.map((build) => build.name);
    for (const [title, figures] of [
      ["time to first byte, ms", firstByte],
      ["server CPU, ms", serverCpu],
    ] as const) {
      console.log(`\n## ${title}: median (min-max) of ${rounds} round(s)`);
      const ratio = names.length === 2 ? [`${names[0]} / ${names[1]}`] : [];
      printTable(
        ["operation", ...names, ...ratio],
        operations.map((operation) => {
          const perBuild = names.map((name) => figures.get(`${name}|${operation}`) ?? []);
          const [before = [], after = []] = perBuild;
          return [
            operation,
            ...perBuild.map((values) => spread(values)),
            ...(ratio.length > 0 ? [(median(before) / median(after)).toFixed(2)] : []),
          ];
        }),
      );
    }
  } finally {
    for (const checkout of checkouts) removeCheckOut(checkout);
  }
}

main().catch((error: unknown) => {
  console.error(`bench transfer: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
