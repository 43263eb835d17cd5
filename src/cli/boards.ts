import { createReadStream, createWriteStream, statSync } from "node:fs";
import { createRequire } from "node:module";
import { pipeline } from "node:stream/promises";
import type { SingleBar } from "cli-progress";
import type { Command } from "commander";
import type { LaneT } from "../client/api-types.js";
import { chooseBoard } from "../client/board-choice.js";
import { exportBoard, importBoard } from "../client/board-transfer.js";
import { WIP_LIMIT_MAX, WIP_LIMIT_MIN } from "../model/limits.js";
import {
  clientCommand,
  groupCommand,
  handler,
  type Output,
  parseId,
  parseIntIn,
  table,
} from "./command-kit.js";

// Boards, lanes and tags: `tack boards`, `tack board ...`, `tack lane ...`, `tack tag ...`.

export function registerBoardCommands(program: Command): void {
  const listBoards = handler(async ({ client, output }) => {
    const boards = await client.listBoards();
    output.list("boards", boards, ["ID", "NAME", "UPDATED"], (board) => [
      board.id,
      board.name,
      board.updatedAt,
    ]);
  });
  clientCommand(program, "boards", "List the boards.", ["tack boards", "tack boards -q"]).action(
    listBoards,
  );

  const board = groupCommand(program, "board", "Create, show, export and import boards.", [
    'tack board create "Website" --lanes todo,doing,review,done',
    "tack board show 1",
    "tack board export 1 > website.json",
    "tack board import website.json",
  ]);

  clientCommand(board, "list", "List the boards (same as `tack boards`).", [
    "tack board list",
  ]).action(listBoards);

  clientCommand(
    board,
    "create <name>",
    "Create a board (lanes todo, doing, done unless --lanes).",
    ['tack board create "Website"', 'tack board create "Ops" --lanes "inbox,doing,done"'],
  )
    .option("--lanes <names>", "comma-separated lane names, in order")
    .option("--idempotency-key <key>", "retry-safe: a repeat with this key creates nothing new")
    .action(
      handler(async ({ client, flags, output }, name) => {
        const lanes =
          typeof flags.lanes === "string"
            ? flags.lanes.split(",").map((lane) => lane.trim())
            : undefined;
        const detail = await client.createBoard(
          name as string,
          lanes,
          flags.idempotencyKey as string | undefined,
        );
        output.emit(
          detail,
          [detail.board.id],
          () =>
            `created board ${detail.board.id} "${detail.board.name}" (lanes ${detail.lanes.map((lane) => lane.name).join(", ")})`,
        );
      }),
    );

  clientCommand(board, "show [board]", "Show a board's lanes, tags and ticket counts.", [
    "tack board show",
    "tack board show 2 --json",
  ]).action(
    handler(async ({ client, output }, given) => {
      const boardId = given === undefined ? await chooseBoard(client) : parseId(given, "board");
      const shell = await client.getBoard(boardId);
      const tickets = output.json ? [] : await client.listTickets(boardId, { archived: "all" });
      output.emit(shell, [shell.board.id], () => {
        const counts = shell.lanes.map((lane) => {
          const inLane = tickets.filter((ticket) => ticket.laneId === lane.id);
          const open = inLane.filter((ticket) => !ticket.isResolved && !ticket.isArchived).length;
          return [lane.id, lane.name, open, inLane.length];
        });
        return [
          `board ${shell.board.id} "${shell.board.name}"`,
          "",
          table(["LANE", "NAME", "OPEN", "TOTAL"], counts),
          "",
          `tags: ${shell.tags.map((tag) => `${tag.name} (${tag.id})`).join(", ") || "none"}`,
        ].join("\n");
      });
    }),
  );

  clientCommand(
    board,
    "export [board]",
    "Print a board's export document (JSON) or write it to a file.",
    ["tack board export 1 > board.json", "tack board export 1 -o board.json"],
  )
    .option("-o, --output <file>", "write to this file instead of stdout")
    .action(
      handler(async ({ client, flags }, given) => {
        const boardId = given === undefined ? await chooseBoard(client) : parseId(given, "board");
        // Written as it arrives, never whole in memory: a 100,000-ticket export is ~400 MiB.
        const document = await exportBoard(client, boardId);
        if (typeof flags.output === "string") {
          await pipeline(document, createWriteStream(flags.output));
        } else {
          await pipeline(document, process.stdout, { end: false });
          process.stdout.write("\n");
        }
      }),
    );

  clientCommand(
    board,
    "import <file>",
    "Import an export document as a new board (`-` reads stdin). A progress bar shows on a terminal.",
    ["tack board import board.json", "cat board.json | tack board import - --json"],
  )
    .option("--idempotency-key <key>", "retry-safe: a repeat with this key creates nothing new")
    .action(
      handler(async ({ client, flags, output }, file) => {
        // Streamed as it is read, never whole in memory: a 100,000-ticket export is ~200 MB.
        const fromStdin = file === "-";
        const size = fromStdin ? undefined : statSync(file as string).size;
        const document: AsyncIterable<Uint8Array> = fromStdin
          ? process.stdin
          : createReadStream(file as string);
        const bar = progressBar(!output.json && !flags.quiet);
        // From stdin the size is known once it has all been read: the total follows the bytes.
        bar?.start(size ?? 0, 0, { phase: "sending" });
        let sent = 0;
        // The answer (the new board with every ticket in full, ~640 MiB for 100,000 tickets)
        // is read as it arrives too: printed as it comes under --json, otherwise only scanned
        // for the board, its lanes and its number of tickets.
        const imported = await importBoard(client, document, {
          idempotencyKey: flags.idempotencyKey as string | undefined,
          onUpload: (bytes) => {
            sent = bytes;
            if (size === undefined) bar?.setTotal(sent);
            bar?.update(sent, {
              phase: size !== undefined && sent >= size ? "importing" : "sending",
            });
          },
          onAnswer: output.json ? (chunk) => writeOut(chunk) : undefined,
        });
        bar?.update(size ?? sent, { phase: "done" });
        bar?.stop();
        if (output.json) {
          process.stdout.write("\n");
          return;
        }
        output.emit(
          imported,
          [imported.board.id],
          () =>
            `imported board ${imported.board.id} "${imported.board.name}": ${imported.lanes.length} lanes, ${imported.ticketCount} tickets`,
        );
      }),
    );

  registerLaneCommands(program);
  registerTagCommands(program);
}

/** Writes to stdout, waiting while it is full (a pipe to a slow reader). */
function writeOut(chunk: Uint8Array): Promise<void> | void {
  if (process.stdout.write(chunk)) return;
  return new Promise((resolve) => process.stdout.once("drain", () => resolve()));
}

/** A bar on stderr, and only when stderr is a terminal: pipes and logs get none. */
function progressBar(wanted: boolean): SingleBar | undefined {
  if (!wanted || !process.stderr.isTTY) return undefined;
  const { SingleBar } = createRequire(import.meta.url)(
    "cli-progress",
  ) as typeof import("cli-progress");
  return new SingleBar({
    stream: process.stderr,
    format: "{bar} {percentage}% | {value}/{total} bytes | {phase}",
    hideCursor: true,
    clearOnComplete: true,
  });
}

function registerLaneCommands(program: Command): void {
  const lane = groupCommand(
    program,
    "lane",
    "List, create, rename and reorder lanes; set their WIP limits.",
    [
      "tack lane list",
      "tack lane create review --board 1 --wip-limit 3",
      "tack lane rename 3 shipped",
      "tack lane limit 3 5",
      "tack lane reorder 1 3 2",
    ],
  );
  clientCommand(lane, "list", "List a board's lanes in order.", ["tack lane list --board 1"], {
    board: true,
  }).action(
    handler(async ({ client, board, output }) => {
      const lanes = await client.listLanes(await chooseBoard(client, board));
      emitLanes(output, lanes);
    }),
  );
  clientCommand(
    lane,
    "create <name>",
    "Add a lane at the end of a board.",
    ["tack lane create review", "tack lane create doing --wip-limit 3"],
    {
      board: true,
    },
  )
    .option("--wip-limit <n>", `soft limit on open tickets in the lane (${WIP_RANGE})`)
    .action(
      handler(async ({ client, board, flags, output }, name) => {
        const wipLimit =
          flags.wipLimit === undefined ? undefined : parseWipLimit(String(flags.wipLimit));
        const created = await client.createLane(
          await chooseBoard(client, board),
          name as string,
          wipLimit,
        );
        output.emit(created, [created.id], () => `created lane ${created.id} "${created.name}"`);
      }),
    );
  clientCommand(
    lane,
    "limit <lane> <limit>",
    `Set a lane's WIP limit (${WIP_RANGE}), or "none" to clear it. Limits are soft: clients show them.`,
    ["tack lane limit 3 5", "tack lane limit 3 none"],
  ).action(
    handler(async ({ client, output }, id, limit) => {
      const updated = await client.setWipLimit(
        parseId(id as string, "lane"),
        parseWipLimit(limit as string),
      );
      output.emit(updated, [updated.id], () =>
        updated.wipLimit === null
          ? `lane ${updated.id} "${updated.name}" has no WIP limit`
          : `lane ${updated.id} "${updated.name}" has a WIP limit of ${updated.wipLimit}`,
      );
    }),
  );
  clientCommand(lane, "rename <lane> <name>", "Rename a lane.", [
    "tack lane rename 3 shipped",
  ]).action(
    handler(async ({ client, output }, id, name) => {
      const renamed = await client.renameLane(parseId(id as string, "lane"), name as string);
      output.emit(renamed, [renamed.id], () => `lane ${renamed.id} is now "${renamed.name}"`);
    }),
  );
  clientCommand(
    lane,
    "reorder <lanes...>",
    "Set the order of a board's lanes (every lane id once).",
    ["tack lane reorder 3 1 2 --board 1"],
    { board: true },
  ).action(
    handler(async ({ client, board, output }, ids) => {
      const laneIds = (ids as unknown as string[]).map((id) => parseId(id, "lane"));
      const lanes = await client.reorderLanes(await chooseBoard(client, board), laneIds);
      emitLanes(output, lanes);
    }),
  );
}

/** A lane's WIP limit as help shows it (docs/api.md, "Lanes"; model/limits.ts). */
const WIP_RANGE = `${WIP_LIMIT_MIN}-${WIP_LIMIT_MAX}`;

/** A WIP limit argument: WIP_RANGE, or "none" (null) to clear it. */
function parseWipLimit(text: string): number | null {
  return text.trim().toLowerCase() === "none"
    ? null
    : parseIntIn(text, "WIP limit", WIP_LIMIT_MIN, WIP_LIMIT_MAX);
}

/** A board's lanes in order: the answer of `lane list` and `lane reorder`. */
function emitLanes(output: Output, lanes: LaneT[]): void {
  output.list("lanes", lanes, ["ID", "NAME", "POSITION", "WIP LIMIT"], (one) => [
    one.id,
    one.name,
    one.position,
    one.wipLimit ?? "-",
  ]);
}

function registerTagCommands(program: Command): void {
  const tag = groupCommand(program, "tag", "List and create tags.", [
    "tack tag list",
    'tack tag create backend --color "#2563eb"',
  ]);
  clientCommand(tag, "list", "List a board's tags.", ["tack tag list --board 1"], {
    board: true,
  }).action(
    handler(async ({ client, board, output }) => {
      const tags = await client.listTags(await chooseBoard(client, board));
      output.list("tags", tags, ["ID", "NAME", "COLOR"], (one) => [one.id, one.name, one.color]);
    }),
  );
  clientCommand(
    tag,
    "create <name>",
    "Create a tag (names are unique per board, any case).",
    ["tack tag create backend", 'tack tag create urgent --color "#dc2626" --board 2'],
    { board: true },
  )
    .option("--color <color>", '#rgb or #rrggbb, or "" for none')
    .action(
      handler(async ({ client, board, flags, output }, name) => {
        const created = await client.createTag(
          await chooseBoard(client, board),
          name as string,
          flags.color as string | undefined,
        );
        output.emit(created, [created.id], () => `created tag ${created.id} "${created.name}"`);
      }),
    );
}
