/**
 * `npm run bench:compare -- <git-ref> [rounds]`: board import times of another commit and of this
 * working tree, alternated in one run. The machines these run on are shared, and the same figure
 * moves by tens of percent between two runs of `npm run bench`; alternating the two builds round
 * by round is what shows what a change did. Each round starts a fresh server from each build and,
 * 2 s after its start line, imports the rich and then the modest 5,000-ticket document twice
 * each, recording the time to first byte.
 */
import { checkOut, median, ROOT, removeCheckOut, spread } from "./builds.js";
import { boardDocument, modestBoardDocument } from "./export-import.js";
import { Client, printTable, startTack } from "./lib.js";

const IMPORTS = [
  ["rich, first import", "rich"],
  ["rich, second", "rich"],
  ["modest, third", "modest"],
  ["modest, fourth", "modest"],
] as const;

async function main(): Promise<void> {
  const [ref, roundsArgument = "4"] = process.argv.slice(2);
  const rounds = Number(roundsArgument);
  if (!ref || !Number.isInteger(rounds) || rounds < 1) {
    throw new Error("usage: npm run bench:compare -- <git-ref> [rounds]");
  }
  const other = checkOut(ref);
  try {
    const documents = { rich: boardDocument(5000), modest: modestBoardDocument(5000) };
    const builds = [
      { name: ref, root: other },
      { name: "this tree", root: ROOT },
    ];
    const times = new Map<string, number[]>();
    for (let round = 1; round <= rounds; round++) {
      for (const build of builds) {
        const tack = await startTack([], build.root);
        const client = new Client(tack.url, 1);
        try {
          for (const [label, document] of IMPORTS) {
            const result = await client.okResult(
              { method: "POST", path: "/api/boards/import", body: documents[document] },
              201,
            );
            const key = `${build.name}|${label}`;
            times.set(key, [...(times.get(key) ?? []), result.firstByteAt - result.sentAt]);
          }
        } finally {
          client.close();
          await tack.stop();
        }
      }
      console.log(`round ${round} of ${rounds} done`);
    }
    const rows = IMPORTS.map(([label]) => {
      const before = times.get(`${ref}|${label}`) ?? [];
      const after = times.get(`this tree|${label}`) ?? [];
      return [label, spread(before), spread(after), (median(before) / median(after)).toFixed(2)];
    });
    console.log(`\n## import, time to first byte in ms: median (min-max) of ${rounds} rounds`);
    printTable(["import", ref, "this tree", `${ref} / this tree`], rows);
  } finally {
    removeCheckOut(other);
  }
}

main().catch((error: unknown) => {
  console.error(`bench:compare: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
