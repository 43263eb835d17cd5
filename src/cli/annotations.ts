import type { Command } from "commander";
import type { TackClient } from "../client/tack-client.js";
import { type BodyFlags, readBody, withBodyOptions } from "./body-input.js";
import { clientCommand, groupCommand, handler, parseId } from "./command-kit.js";
import { UsageError } from "./exit-codes.js";

// What agents and people leave on a ticket: comments and ticket events.

export function registerAnnotationCommands(program: Command): void {
  const comment = groupCommand(program, "comment", "Add, list and edit comments.", [
    'tack comment add 42 "Root cause: the session cookie expires early."',
    "tack comment list 42",
    "tack comment edit 7 --body-file - < better.md",
  ]);

  withBodyOptions(
    clientCommand(
      comment,
      "add <ticket> [text]",
      "Add a Markdown comment (text, --body-file or --editor).",
      [
        'tack comment add 42 "Looks good"',
        "git log -1 --format=%B | tack comment add 42 --body-file -",
      ],
    ),
    { bodyFlag: false },
  )
    .option("--idempotency-key <key>", "retry-safe: a repeat with this key adds nothing new")
    .action(
      handler(async ({ client, flags, output }, id, text) => {
        const body = await readBody({ ...(flags as BodyFlags), body: text });
        if (body === undefined)
          throw new UsageError("give the comment text, --body-file or --editor");
        const added = await client.addComment(
          parseId(id as string, "ticket"),
          body,
          flags.idempotencyKey as string | undefined,
        );
        output.emit(added, [added.id], () => `added comment ${added.id} to #${added.ticketId}`);
      }),
    );

  ticketListCommand(
    comment,
    "comments",
    (client, ticketId) => client.listComments(ticketId),
    ["ID", "CREATED", "SYNC", "TEXT"],
    (one) => [one.id, one.createdAt, one.sync.status, firstLine(one.bodyMarkdown)],
  );

  withBodyOptions(
    clientCommand(comment, "edit <comment> [text]", "Replace a comment's text.", [
      'tack comment edit 7 "Fixed typo"',
      "tack comment edit 7 --editor",
    ]),
    { bodyFlag: false },
  ).action(
    handler(async ({ client, flags, output }, id, text) => {
      const body = await readBody({ ...(flags as BodyFlags), body: text });
      if (body === undefined) throw new UsageError("give the new text, --body-file or --editor");
      const edited = await client.editComment(parseId(id as string, "comment"), body);
      output.emit(edited, [edited.id], () => `edited comment ${edited.id}`);
    }),
  );

  const event = groupCommand(
    program,
    "event",
    "Log structured ticket events (progress, test results).",
    ['tack event log 42 --kind test_result --title "unit tests pass" --data \'{"passed":212}\''],
  );
  clientCommand(
    event,
    "log <ticket>",
    "Append an event to a ticket (events are data, not activity).",
    [
      'tack event log 42 --kind progress --title "parser done"',
      'tack event log 42 --kind blocked --title "waiting on review" --severity warning',
      "tack event log 42 --kind test_result --title ci --data @result.json",
    ],
  )
    .requiredOption("--kind <kind>", "event type, e.g. progress, decision, test_result, blocked")
    .requiredOption("--title <title>", "one line")
    .option("--source <source>", "who produced it (default: --actor)")
    .option("--summary <text>", "a longer sentence")
    .option("--severity <level>", "e.g. info, warning, error")
    .option("--data <json>", "a JSON object, or @file")
    .option("--idempotency-key <key>", "retry-safe: a repeat with this key adds nothing new")
    .action(
      handler(async ({ client, flags, output }, id) => {
        const logged = await client.logEvent(
          parseId(id as string, "ticket"),
          {
            source: (flags.source as string | undefined) ?? client.actor,
            kind: flags.kind as string,
            title: flags.title as string,
            ...(flags.summary === undefined ? {} : { summary: flags.summary as string }),
            ...(flags.severity === undefined ? {} : { severity: flags.severity as string }),
            ...(flags.data === undefined
              ? {}
              : { data: await jsonObject(String(flags.data), "--data") }),
          },
          flags.idempotencyKey as string | undefined,
        );
        output.emit(logged, [logged.id], () => `logged event ${logged.id} on #${logged.ticketId}`);
      }),
    );
  ticketListCommand(
    event,
    "events",
    (client, ticketId) => client.listEvents(ticketId),
    ["ID", "CREATED", "SOURCE", "KIND", "TITLE"],
    (one) => [one.id, one.createdAt, one.source, one.kind, one.title],
  );
}

/** `tack <group> list <ticket>`: the ticket's comments or events, newest first. */
function ticketListCommand<Row extends { id: number }>(
  group: Command,
  key: "comments" | "events",
  list: (client: TackClient, ticketId: number) => Promise<Row[]>,
  head: string[],
  cells: (row: Row) => Array<string | number>,
): void {
  clientCommand(group, "list <ticket>", `List a ticket's ${key}, newest first.`, [
    `tack ${group.name()} list 42`,
  ]).action(
    handler(async ({ client, output }, id) => {
      output.list(key, await list(client, parseId(id as string, "ticket")), head, cells);
    }),
  );
}

/** A JSON object from text or from @file. */
export async function jsonObject(text: string, name: string): Promise<Record<string, unknown>> {
  const { readFileSync } = await import("node:fs");
  let source = text;
  if (text.startsWith("@")) {
    try {
      source = readFileSync(text.slice(1), "utf8");
    } catch {
      throw new UsageError(`cannot read ${text.slice(1)}`);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    throw new UsageError(`${name} is not valid JSON`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError(`${name} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

function firstLine(text: string): string {
  const line = text.split("\n")[0] ?? "";
  return line.length > 70 ? `${line.slice(0, 69)}…` : line;
}
