import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { UsageError } from "./exit-codes.js";

// Where a Markdown body comes from: --body text, --body-file <file> (`-` is stdin), or the
// user's editor with -e (as `git commit` does), starting from the current text.

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export interface BodyFlags {
  body?: string;
  bodyFile?: string;
  editor?: boolean;
}

/** The body the flags ask for, or undefined when they name none. */
export async function readBody(flags: BodyFlags, current = ""): Promise<string | undefined> {
  const given = [flags.body !== undefined, flags.bodyFile !== undefined, flags.editor === true];
  if (given.filter(Boolean).length > 1) {
    throw new UsageError("use only one of --body, --body-file and --editor");
  }
  if (flags.body !== undefined) return flags.body;
  if (flags.bodyFile === "-") return readStdin();
  if (flags.bodyFile !== undefined) {
    try {
      return readFileSync(flags.bodyFile, "utf8");
    } catch {
      throw new UsageError(`cannot read ${flags.bodyFile}`);
    }
  }
  if (flags.editor) return editText(current);
  return undefined;
}

function editText(current: string): string {
  const editor = process.env.VISUAL || process.env.EDITOR;
  if (!editor) throw new UsageError("set $EDITOR (or $VISUAL) to use --editor");
  const folder = mkdtempSync(join(tmpdir(), "tack-body-"));
  const file = join(folder, "body.md");
  try {
    writeFileSync(file, current);
    // Through the shell, so EDITOR may carry arguments ("code --wait").
    const result = spawnSync(`${editor} "${file}"`, { shell: true, stdio: "inherit" });
    if (result.status !== 0) throw new UsageError(`the editor exited with ${result.status}`);
    return readFileSync(file, "utf8");
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Adds `--body` (unless the text is an argument instead), `--body-file` and `-e, --editor`. */
export function withBodyOptions(command: Command, options: { bodyFlag: boolean }): Command {
  if (options.bodyFlag) command.option("--body <text>", "Markdown body text");
  return command
    .option("--body-file <file>", "read the Markdown body from a file (- for stdin)")
    .option("-e, --editor", "write the body in $VISUAL / $EDITOR");
}
