import type { Command } from "commander";
import type { AskT } from "../client/api-types.js";
import {
  answerAsk,
  askLine,
  getAsk,
  inbox,
  openAsk,
  waitForAsk,
  withdrawAsk,
} from "../client/asks.js";
import { ApiError } from "../client/errors.js";
import {
  type ClientFlags,
  clientCommand,
  collect,
  groupCommand,
  handler,
  type Output,
  parseDuration,
  parseId,
  parseIntIn,
} from "./command-kit.js";
import { EXIT, UsageError } from "./exit-codes.js";

// The developer in the loop (docs/api.md: "Asks", "Checklists"): an agent asks the people on a
// board and waits (`tack ask`), a person sees the open asks (`tack inbox`) and answers
// (`tack answer`); `tack check` ticks a checklist item.

/** A week: `--wait` may outlast any lease, but not forever. */
const MAX_WAIT = 7 * 86_400;
const STATUSES = ["open", "answered", "withdrawn", "all"] as const;

export function registerLoopCommands(program: Command): void {
  const ask = groupCommand(
    program,
    "ask",
    "Ask the people on the board a question about a ticket, and wait for the answer.",
    [
      'tack ask 42 "Which database for sessions?" --option Postgres --option Redis --wait 10m',
      'tack ask 42 "Anything against shipping Friday?" --no-blocking',
      "tack ask show 7 --wait 5m",
      "tack ask withdraw 7",
    ],
  );

  clientCommand(
    ask,
    "open <ticket> <question>",
    "Open an ask (the default: `tack ask <ticket> <question>`); a blocking one keeps the ticket out of the ready queue until answered. With --wait, print the answer when it comes (exit 6 if none came).",
    [
      'tack ask 42 "Which database?" --option Postgres --option Redis --wait 10m',
      'tack ask 42 "Ship Friday?" --no-blocking -q',
      'tack ask open 42 "Ship Friday?" --wait 1h --json',
    ],
    { isDefault: true },
  )
    .option(
      "--option <choice>",
      "a choice the answer may pick (repeat for more, up to 10)",
      collect,
    )
    .option("--no-blocking", "keep the ticket ready while the ask is open")
    .option("--wait <duration>", "wait this long for the answer: 90s, 10m, 2h")
    .option("--idempotency-key <key>", "retry-safe: a repeat with this key opens nothing new")
    .action(
      handler(async ({ client, flags, output }, ticket, question) => {
        const wait = waitFlag(flags.wait);
        const opened = await openAsk(
          client,
          parseId(ticket as string, "ticket"),
          {
            question: question as string,
            options: flags.option as string[] | undefined,
            blocking: flags.blocking === false ? false : undefined,
          },
          flags.idempotencyKey as string | undefined,
        );
        // Said at once, so a person (or a log) sees what is being waited for.
        if (!output.json) output.emit(opened, [opened.id], () => askText(opened));
        if (wait === undefined) {
          if (output.json) output.emit(opened, [opened.id], () => "");
          return;
        }
        const final = await waitForAsk(client, opened.id, wait);
        finishWait(final, output, flags, false);
      }),
    );

  clientCommand(
    ask,
    "show <ask>",
    "Show an ask; with --wait, wait that long for its answer (exit 6 if none came).",
    ["tack ask show 7", "tack ask show 7 --wait 10m --json"],
  )
    .option("--wait <duration>", "wait this long for the answer: 90s, 10m, 2h")
    .action(
      handler(async ({ client, flags, output }, id) => {
        const askId = parseId(id as string, "ask");
        const wait = waitFlag(flags.wait);
        if (wait === undefined) {
          const found = await getAsk(client, askId);
          output.emit(found, [found.id], () => askText(found));
          return;
        }
        finishWait(await waitForAsk(client, askId, wait), output, flags, true);
      }),
    );

  clientCommand(
    ask,
    "withdraw <ask>",
    "Withdraw your own open ask (it no longer holds its ticket).",
    ["tack ask withdraw 7"],
  ).action(
    handler(async ({ client, output }, id) => {
      const withdrawn = await withdrawAsk(client, parseId(id as string, "ask"));
      output.emit(withdrawn, [withdrawn.id], () => askLine(withdrawn));
    }),
  );

  clientCommand(
    program,
    "inbox",
    "List the asks waiting for an answer (every board's, or one board's), oldest first.",
    ["tack inbox", "tack inbox --board 2", "tack inbox --status all --json"],
    { board: true },
  )
    .option("--status <status>", "open (default), answered, withdrawn or all")
    .action(
      handler(async ({ client, board, flags, output }) => {
        const status = flags.status as (typeof STATUSES)[number] | undefined;
        if (status !== undefined && !STATUSES.includes(status)) {
          throw new UsageError("--status must be open, answered, withdrawn or all");
        }
        const asks = await inbox(client, { status, boardId: board });
        output.list(
          "asks",
          asks,
          ["ASK", "TICKET", "FROM", "STATUS", "OPTIONS", "QUESTION", "ASKED"],
          (one) => [
            one.id,
            `#${one.ticketId}`,
            one.actor,
            one.status === "open" && one.blocking ? "open, blocking" : one.status,
            one.options.join(" | "),
            firstLine(one.question),
            one.createdAt,
          ],
          "no open asks",
        );
      }),
    );

  clientCommand(
    program,
    "answer <ask> [text]",
    "Answer an open ask: a text, one of its options (--option), or both.",
    [
      'tack answer 7 --option Redis "sessions are short-lived"',
      'tack answer 7 "Yes, ship it"',
      "tack answer 7 --option Postgres --actor alice",
    ],
  )
    .option("--option <choice>", "the chosen option, exactly as offered")
    .action(
      handler(async ({ client, flags, output }, id, text) => {
        const option = flags.option as string | undefined;
        if (text === undefined && option === undefined) {
          throw new UsageError("give the answer's text, --option, or both");
        }
        const answered = await answerAsk(client, parseId(id as string, "ask"), { text, option });
        output.emit(answered, [answered.id], () => askLine(answered));
      }),
    );

  clientCommand(
    program,
    "check <ticket> <index>",
    "Tick item <index> (0-based, in document order) of a ticket's checklist: the task list items (- [ ] ...) of its body; --uncheck clears it.",
    ["tack check 42 0", "tack check 42 2 --uncheck", "tack check 42 1 --if-version 7"],
  )
    .option("--uncheck", "clear the box instead")
    .option("--if-version <n>", "only if the ticket is still at this version (exit 4 otherwise)")
    .action(
      handler(async ({ client, flags, output }, id, index) => {
        const ticketId = parseId(id as string, "ticket");
        const item = parseIntIn(index as string, "index", 0, Number.MAX_SAFE_INTEGER);
        const checked = flags.uncheck !== true;
        let etag: string | undefined;
        if (flags.ifVersion !== undefined) {
          const version = parseIntIn(String(flags.ifVersion), "--if-version", 1, 2 ** 31);
          const current = await client.getTicketWithTag(ticketId);
          if (current.ticket.version !== version) {
            throw new ApiError(
              "version_conflict",
              `ticket ${ticketId} is at version ${current.ticket.version}, not ${version}`,
              "read the ticket again and apply your change to the current version",
              false,
              412,
            );
          }
          etag = current.etag ?? undefined;
        }
        const ticket = await client.setChecklistItem(ticketId, item, checked, etag);
        const counts = ticket.checklist ?? { done: 0, total: 0 };
        output.emit(
          ticket,
          [ticket.id],
          () =>
            `#${ticket.id} item ${item} ${checked ? "checked" : "unchecked"}: ${counts.done}/${counts.total} done`,
        );
      }),
    );
}

function waitFlag(value: unknown): number | undefined {
  return value === undefined ? undefined : parseDuration(String(value), "--wait", MAX_WAIT);
}

/** Prints where the ask stands after a wait; exit 6 unless it was answered. */
function finishWait(ask: AskT, output: Output, flags: ClientFlags, printIds: boolean): void {
  if (output.json) output.emit(ask, [ask.id], () => "");
  else if (ask.status === "answered")
    output.emit(ask, printIds ? [ask.id] : [], () => askLine(ask));
  else if (printIds) output.emit(ask, [ask.id], () => "");
  if (ask.status === "answered") return;
  if (!flags.quiet || flags.json) {
    console.error(
      ask.status === "open"
        ? `tack: no answer to ask ${ask.id} yet; it stays open: tack ask show ${ask.id} --wait 10m`
        : `tack: ask ${ask.id} was withdrawn`,
    );
  }
  process.exitCode = EXIT.noAnswer;
}

/** An ask as people read it. */
function askText(ask: AskT): string {
  const lines = [
    `ask ${ask.id} on #${ask.ticketId} by ${ask.actor} (${ask.status}${ask.blocking ? ", blocking" : ""}, ${ask.createdAt})`,
    ask.question.trimEnd(),
  ];
  if (ask.options.length > 0) lines.push(`options: ${ask.options.join(" | ")}`);
  if (ask.status !== "open") lines.push(askLine(ask));
  return lines.join("\n");
}

function firstLine(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
