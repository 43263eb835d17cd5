import { createRequire } from "node:module";
import { userInfo } from "node:os";
import { type Command, Option } from "commander";
import type { LaneT } from "../client/api-types.js";
import { ApiError } from "../client/errors.js";
import { DEFAULT_URL, TackClient } from "../client/tack-client.js";
import { findLane } from "../client/ticket-operations.js";
import { PRIORITY_MAX, PRIORITY_MIN } from "../model/limits.js";
import { EXIT, exitCodeFor, UsageError } from "./exit-codes.js";

// Shared plumbing of the client commands: the connection options every one of them takes, the
// three output modes (table, --json, -q) and the mapping of failures to exit codes.

export interface ClientFlags {
  url: string;
  token?: string;
  actor: string;
  json?: boolean;
  quiet?: boolean;
  board?: string;
}

export interface CommandContext {
  client: TackClient;
  flags: ClientFlags & Record<string, unknown>;
  /** The board named by --board / TACK_BOARD, if any. */
  board: number | undefined;
  output: Output;
}

export function defaultActor(): string {
  try {
    return userInfo().username || "agent";
  } catch {
    return "agent";
  }
}

/**
 * Adds a client subcommand: the connection and output options, and examples under its help.
 */
export function clientCommand(
  parent: Command,
  nameAndArgs: string,
  description: string,
  examples: string[],
  options: { board?: boolean; isDefault?: boolean } = {},
): Command {
  const command = parent
    .command(nameAndArgs, { isDefault: options.isDefault === true })
    .description(description)
    .addOption(
      new Option("--url <url>", "URL of the running tack").env("TACK_URL").default(DEFAULT_URL),
    )
    .addOption(
      new Option("--token <token>", "access token, when the server requires one").env("TACK_TOKEN"),
    )
    .addOption(
      new Option("--actor <name>", "who claims tickets").env("TACK_ACTOR").default(defaultActor()),
    )
    .option("--json", "print the API's JSON exactly")
    .option("-q, --quiet", "print ids only, one per line");
  if (options.board) {
    command.addOption(
      new Option("--board <id>", "board id (optional when there is only one)").env("TACK_BOARD"),
    );
  }
  if (examples.length > 0) {
    command.addHelpText(
      "after",
      `\nExamples:\n${examples.map((line) => `  $ ${line}`).join("\n")}`,
    );
  }
  return command;
}

/** A group command (`tack ticket`) with examples; its subcommands are client commands. */
export function groupCommand(
  parent: Command,
  name: string,
  description: string,
  examples: string[],
) {
  const command = parent.command(name).description(description);
  command.addHelpText("after", `\nExamples:\n${examples.map((line) => `  $ ${line}`).join("\n")}`);
  return command;
}

/**
 * Wraps an action: builds the client from the flags, runs the handler with the positional
 * arguments, and turns failures into a message on stderr and the documented exit code.
 */
export function handler(
  run: (context: CommandContext, ...args: string[]) => Promise<void>,
): (...params: unknown[]) => Promise<void> {
  return async (...params: unknown[]) => {
    const command = params[params.length - 1] as Command;
    const flags = command.opts() as ClientFlags & Record<string, unknown>;
    const args = params.slice(0, -2) as string[];
    // `tack ready --json | head -1`: a reader that stops early is not an error.
    process.stdout.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit(EXIT.ok);
      throw error;
    });
    try {
      const board = flags.board === undefined ? undefined : parseId(flags.board, "--board");
      const client = new TackClient({ url: flags.url, actor: flags.actor, token: flags.token });
      await run({ client, flags, board, output: new Output(flags) }, ...args);
    } catch (error) {
      process.exitCode = reportFailure(error);
    }
  };
}

export function reportFailure(error: unknown): number {
  if (error instanceof ApiError) {
    console.error(`tack: ${error.message}`);
    console.error(`hint: ${error.hint}`);
    return exitCodeFor(error);
  }
  if (error instanceof UsageError) {
    console.error(`tack: ${error.message}`);
    return EXIT.usage;
  }
  const message = error instanceof Error ? error.message : String(error);
  console.error(`tack: unexpected error: ${message.split("\n")[0]}`);
  return EXIT.refused;
}

export function parseId(text: string, name: string): number {
  if (!/^[1-9]\d*$/.test(text.trim()))
    throw new UsageError(`${name} must be a positive integer, not "${text}"`);
  return Number(text);
}

const SECONDS_PER = { s: 1, m: 60, h: 3600, d: 86_400 } as const;

/** `90`, `90s`, `5m`, `2h` or `1d` as seconds, at most `max`. */
export function parseDuration(text: string, name: string, max: number): number {
  const match = /^(\d+)([smhd]?)$/.exec(text.trim());
  const seconds = match
    ? Number(match[1]) * SECONDS_PER[(match[2] || "s") as keyof typeof SECONDS_PER]
    : Number.NaN;
  if (!(seconds <= max)) {
    throw new UsageError(
      `${name} must be a duration such as 90s, 5m, 2h or 1d (at most ${max} seconds), not "${text}"`,
    );
  }
  return seconds;
}

/** Parses an option that may be repeated (`--var a=1 --var b=2`) into the list of its values. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The lane `--lane` names (an id or a name among `lanes`), or undefined without `--lane`. */
export function laneFlag(lanes: LaneT[], given: unknown): LaneT | undefined {
  return given === undefined ? undefined : findLane(lanes, String(given));
}

/** `--priority`'s argument as the help shows it (docs/api.md's range, model/limits.ts). */
export const PRIORITY_ARG = `<${PRIORITY_MIN}-${PRIORITY_MAX}>`;

/** `--priority` (PRIORITY_ARG), or undefined without it. */
export function priorityFlag(given: unknown): number | undefined {
  return given === undefined
    ? undefined
    : parseIntIn(String(given), "--priority", PRIORITY_MIN, PRIORITY_MAX);
}

export function parseIntIn(text: string, name: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^-?\d+$/.test(text.trim()) || value < min || value > max) {
    throw new UsageError(`${name} must be an integer from ${min} to ${max}, not "${text}"`);
  }
  return value;
}

/** Prints one result in the mode the flags chose. */
export class Output {
  constructor(private readonly flags: ClientFlags) {}

  get json(): boolean {
    return this.flags.json === true;
  }

  /**
   * `value` is the API's JSON (printed as is under --json); `ids` what -q prints; `human` the
   * table or text shown otherwise.
   */
  emit(value: unknown, ids: Array<number | string>, human: () => string): void {
    if (this.flags.json) {
      writeLine(JSON.stringify(value, null, 2));
    } else if (this.flags.quiet) {
      if (ids.length > 0) writeLine(ids.join("\n"));
    } else {
      const text = human();
      if (text !== "") writeLine(text);
    }
  }

  /**
   * A list answer: `{ [key]: rows }` under --json (the API's envelope), the rows' ids under -q,
   * otherwise a table with `head` and one row of `cells` per item (`empty` when there is none).
   */
  list<Row extends { id: number | string }>(
    key: string,
    rows: Row[],
    head: string[],
    cells: (row: Row) => Array<string | number>,
    empty?: string,
  ): void {
    this.emit(
      { [key]: rows },
      rows.map((row) => row.id),
      () => (rows.length === 0 && empty !== undefined ? empty : table(head, rows.map(cells))),
    );
  }
}

function writeLine(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** A borderless table, columns left-aligned, as `gh` and `kubectl` print them. */
export function table(head: string[], rows: Array<Array<string | number>>): string {
  if (rows.length === 0) return "(none)";
  // Loaded on first use: --json and -q runs never pay for it.
  const Table = createRequire(import.meta.url)("cli-table3") as typeof import("cli-table3");
  const output = new Table({
    head,
    chars: {
      top: "",
      "top-mid": "",
      "top-left": "",
      "top-right": "",
      bottom: "",
      "bottom-mid": "",
      "bottom-left": "",
      "bottom-right": "",
      left: "",
      "left-mid": "",
      mid: "",
      "mid-mid": "",
      right: "",
      "right-mid": "",
      middle: "  ",
    },
    style: { head: [], border: [], "padding-left": 0, "padding-right": 0 },
  });
  for (const row of rows) output.push(row.map(String));
  return output
    .toString()
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n");
}
