import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Runs `build` unless `isFresh()` says its output is current. Test files run in parallel
 * processes, so one builds while the others wait on a lock folder under dist/ (mkdir is atomic),
 * then find the output fresh. A lock left by a killed process is taken over after 5 minutes.
 */
export function buildOnce(name: string, isFresh: () => boolean, build: () => void): void {
  if (isFresh()) return;
  mkdirSync(join(ROOT, "dist"), { recursive: true });
  const lock = join(ROOT, "dist", `.${name}-build-lock`);
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    if (!isFresh()) build();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
