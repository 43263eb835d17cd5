import type { Command } from "commander";
import { BODY_OPTIONS_HELP, readBody } from "./body-input.js";
import { clientCommand, groupCommand, handler, parseId, table } from "./command-kit.js";
import { UsageError } from "./exit-codes.js";

// What agents and people leave on a ticket: comments and ticket events.

export function registerAnnotationCommands(program: Command): void {
  const comment = groupCommand(program, "comment", "Add, list and edit comments.", [
    'tack comment add 42 "Root cause: the session cookie expires early."',
    "tack comment list 42",
    "tack comment edit 7 --body-file - < better.md",
  ]);

  clientCommand(
    comment,
    "add <ticket> [text]",
    "Add a Markdown comment (text, --body-file or --editor).",
    [
      'tack comment add 42 "Looks good"',
      "git log -1 --format=%B | tack comment add 42 --body-file -",
    ],
  )
    .option("--body-file <file>", BODY_OPTIONS_HELP.bodyFile)
    .option("-e, --editor", BODY_OPTIONS_HELP.editor)
    .option("--idempotency-key <key>", "retry-safe: a repeat with this key adds nothing new")
    .action(
      handler(async ({ client, flags, output }, id, text) => {
        const body = await readBody({
          body: text,
          bodyFile: flags.bodyFile as string | undefined,
          editor: flags.editor === true,
        });
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

  clientCommand(comment, "list <ticket>", "List a ticket's comments, newest first.", [
    "tack comment list 42",
  ]).action(
    handler(async ({ client, output }, id) => {
      const comments = await client.listComments(parseId(id as string, "ticket"));
      output.emit(
        { comments },
        comments.map((one) => one.id),
        () =>
          table(
            ["ID", "CREATED", "SYNC", "TEXT"],
            comments.map((one) => [
              one.id,
              one.createdAt,
              one.sync.status,
              firstLine(one.bodyMarkdown),
            ]),
          ),
      );
    }),
  );

  clientCommand(comment, "edit <comment> [text]", "Replace a comment's text.", [
    'tack comment edit 7 "Fixed typo"',
    "tack comment edit 7 --editor",
  ])
    .option("--body-file <file>", BODY_OPTIONS_HELP.bodyFile)
    .option("-e, --editor", BODY_OPTIONS_HELP.editor)
    .action(
      handler(async ({ client, flags, output }, id, text) => {
        const body = await readBody({
          body: text,
          bodyFile: flags.bodyFile as string | undefined,
          editor: flags.editor === true,
        });
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
  clientCommand(event, "list <ticket>", "List a ticket's events, newest first.", [
    "tack event list 42",
  ]).action(
    handler(async ({ client, output }, id) => {
      const events = await client.listEvents(parseId(id as string, "ticket"));
      output.emit(
        { events },
        events.map((one) => one.id),
        () =>
          table(
            ["ID", "CREATED", "SOURCE", "KIND", "TITLE"],
            events.map((one) => [one.id, one.createdAt, one.source, one.kind, one.title]),
          ),
      );
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
