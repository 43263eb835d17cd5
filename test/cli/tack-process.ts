import { spawn } from "node:child_process";
import { CLI_ENTRY, cleanEnv, type Exit, ROOT, waitForExit } from "../helpers/cli.js";

/**
 * Runs `tack <args>` as a child process against a server, as a script would: stdin, stdout and
 * stderr are pipes (so the CLI sees no terminal), `input` is written to stdin and closed.
 */
export function tack(
  url: string,
  args: string[],
  options: { input?: string; env?: Record<string, string> } = {},
): Promise<Exit> {
  const child = spawn(process.execPath, [...CLI_ENTRY, ...args], {
    cwd: ROOT,
    env: cleanEnv({ TACK_URL: url, TACK_ACTOR: "tester", ...options.env }),
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stdin.end(options.input ?? "");
  return waitForExit(child);
}

/** Runs it and parses stdout as JSON (the command must succeed). */
export async function tackJson<T = any>(url: string, args: string[], input?: string): Promise<T> {
  const exit = await tack(url, [...args, "--json"], input === undefined ? {} : { input });
  if (exit.code !== 0)
    throw new Error(`tack ${args.join(" ")} exited ${exit.code}: ${exit.stderr}`);
  return JSON.parse(exit.stdout) as T;
}
