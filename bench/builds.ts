/**
 * Another commit's build beside this tree's, for the benchmarks' `--compare <commit>`
 * (bench/main.ts): a detached git worktree in a temporary folder, sharing this tree's node_modules.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** A built checkout of `ref` in a temporary folder, sharing this tree's node_modules. */
export function checkOut(ref: string): string {
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
export function removeCheckOut(folder: string): void {
  execFileSync("git", ["worktree", "remove", "--force", folder], { cwd: ROOT });
  rmSync(dirname(folder), { recursive: true, force: true });
}

/** A build to measure: a name for the tables and the folder it was built in. */
export interface BuildRoot {
  name: string;
  root: string;
}

/**
 * The builds a `--compare <ref>` bench alternates: that ref's checkout first (its folder is
 * pushed onto `checkouts`, for removeCheckOut when the bench ends), then this tree. Without a
 * ref, this tree alone.
 */
export function buildsToCompare(ref: string | undefined, checkouts: string[]): BuildRoot[] {
  const roots: BuildRoot[] = [{ name: "this tree", root: ROOT }];
  if (ref) {
    console.log(`building ${ref} in a temporary worktree…`);
    const other = checkOut(ref);
    checkouts.push(other);
    roots.unshift({ name: ref, root: other });
  }
  return roots;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** "median (min-max)", whole numbers. */
export function spread(values: number[], digits = 0): string {
  return `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)})`;
}
