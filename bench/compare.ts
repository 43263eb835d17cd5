/**
 * `npm run bench:compare -- <git-ref> [rounds]`: board import times of another commit and of this
 * working tree, alternated in one run. The machines these run on are shared, and the same figure
 * moves by tens of percent between two runs of `npm run bench`; alternating the two builds round
 * by round is what shows what a change did. Each round starts a fresh server from each build and,
 * 2 s after its start line, imports the rich and then the modest 5,000-ticket document twice
 * each, recording the time to first byte.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { boardDocument, modestBoardDocument } from "./export-import.js";
import { Client, printTable, startTack } from "./lib.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
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

/** A built checkout of `ref` in a temporary folder, sharing this tree's node_modules. */
function checkOut(ref: string): string {
  const folder = join(mkdtempSync(join(tmpdir(), "tack-compare-")), "tree");
  execFileSync("git", ["worktree", "add", "--detach", folder, ref], { cwd: ROOT, stdio: "ignore" });
  try {
    symlinkSync(join(ROOT, "node_modules"), join(folder, "node_modules"), "dir");
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
    execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: folder });
  } catch (error) {
    removeCheckOut(folder);
    throw error;
  }
  return folder;
}

/** Unregisters the worktree and deletes it with the temporary folder around it. */
function removeCheckOut(folder: string): void {
  execFileSync("git", ["worktree", "remove", "--force", folder], { cwd: ROOT });
  rmSync(dirname(folder), { recursive: true, force: true });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function spread(values: number[]): string {
  return `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)})`;
}

main().catch((error: unknown) => {
  console.error(`bench:compare: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
