import { readFileSync } from "node:fs";
import type { Command } from "commander";
import type { TemplateInput, TemplateT } from "../client/api-types.js";
import { chooseBoard } from "../client/board-choice.js";
import {
  createTemplate,
  deleteTemplate,
  findTemplate,
  instantiateTemplate,
  listTemplates,
} from "../client/templates.js";
import { readStdin } from "./body-input.js";
import { clientCommand, collect, groupCommand, handler, laneFlag, table } from "./command-kit.js";
import { UsageError } from "./exit-codes.js";
import { ticketTable } from "./ticket-format.js";

// Templates (docs/api.md, "Templates"): `tack template list|show|create|instantiate|delete`.

export function registerTemplateCommands(program: Command): void {
  const template = groupCommand(
    program,
    "template",
    "A board's templates: named sets of tickets made in one step.",
    [
      "tack template list",
      "tack template create release.json",
      'tack template instantiate Release --var version=1.4 --var date="Friday"',
    ],
  );

  clientCommand(
    template,
    "list",
    "List the board's templates by name.",
    ["tack template list", "tack template list --board 2 --json"],
    { board: true },
  ).action(
    handler(async ({ client, board, output }) => {
      const templates = await listTemplates(client, await chooseBoard(client, board));
      output.list("templates", templates, ["ID", "NAME", "TICKETS", "VARIABLES"], (one) => [
        one.id,
        one.name,
        one.tickets.length,
        one.variables.join(", "),
      ]);
    }),
  );

  clientCommand(
    template,
    "show <template>",
    "Show a template (by id, or by name on the board): its variables and tickets.",
    ["tack template show 3", 'tack template show "Release" --json'],
    { board: true },
  ).action(
    handler(async ({ client, board, output }, given) => {
      const found = await byIdOrName(client, board, given as string);
      output.emit(found, [found.id], () => templateText(found));
    }),
  );

  clientCommand(
    template,
    "create <file>",
    'Create a template from a JSON file (`-` reads stdin): {"name", "description"?, "tickets": [{"key", "title", "bodyMarkdown"?, "laneName"?, "priority"?, "tagNames"?, "parentKey"?, "blockerKeys"?}]}; {{name}} in titles and bodies is a variable.',
    ["tack template create release.json", "tack template create - --board 2 < release.json"],
    { board: true },
  )
    .option("--idempotency-key <key>", "retry-safe: a repeat with this key creates nothing new")
    .action(
      handler(async ({ client, board, flags, output }, file) => {
        const text = file === "-" ? await readStdin() : readText(file as string);
        let input: TemplateInput;
        try {
          input = JSON.parse(text) as TemplateInput;
        } catch {
          throw new UsageError(`${file === "-" ? "stdin" : file} is not JSON`);
        }
        const created = await createTemplate(
          client,
          await chooseBoard(client, board),
          input,
          flags.idempotencyKey as string | undefined,
        );
        output.emit(
          created,
          [created.id],
          () =>
            `created template ${created.id} ${created.name} (${created.tickets.length} tickets${created.variables.length > 0 ? `; variables: ${created.variables.join(", ")}` : ""})`,
        );
      }),
    );

  clientCommand(
    template,
    "instantiate <template>",
    "Make a template's tickets in one step, each {{name}} replaced by its --var value.",
    [
      "tack template instantiate Release --var version=1.4",
      "tack template instantiate 3 --var version=1.4 --lane doing --json",
    ],
    { board: true },
  )
    .option("--var <name=value>", "a variable's value (repeat for more)", collect)
    .option("--lane <lane>", "lane (id or name) for tickets whose template names none")
    .option("--idempotency-key <key>", "retry-safe: a repeat with this key makes nothing new")
    .action(
      handler(async ({ client, board, flags, output }, given) => {
        const values: Record<string, string> = {};
        for (const pair of (flags.var as string[] | undefined) ?? []) {
          const equals = pair.indexOf("=");
          if (equals < 1) throw new UsageError(`--var must be name=value, not "${pair}"`);
          values[pair.slice(0, equals)] = pair.slice(equals + 1);
        }
        const found = await byIdOrName(client, board, given as string);
        const lanes = await client.listLanes(found.boardId);
        const tickets = await instantiateTemplate(
          client,
          found.id,
          {
            values: flags.var === undefined ? undefined : values,
            laneId: laneFlag(lanes, flags.lane)?.id,
          },
          flags.idempotencyKey as string | undefined,
        );
        output.emit(
          { tickets },
          tickets.map((one) => one.id),
          () => `made ${tickets.length} tickets from ${found.name}\n${ticketTable(tickets, lanes)}`,
        );
      }),
    );

  clientCommand(
    template,
    "delete <template>",
    "Delete a template (its tickets stay).",
    ["tack template delete 3"],
    { board: true },
  ).action(
    handler(async ({ client, board, output }, given) => {
      const found = await byIdOrName(client, board, given as string);
      await deleteTemplate(client, found.id);
      output.emit(
        { deleted: found.id },
        [found.id],
        () => `deleted template ${found.id} ${found.name}`,
      );
    }),
  );
}

/** An id needs no board; a name is looked up on --board (or the only board). */
async function byIdOrName(
  client: Parameters<typeof listTemplates>[0],
  board: number | undefined,
  given: string,
): Promise<TemplateT> {
  const boardId = /^\d+$/.test(given) ? 0 : await chooseBoard(client, board);
  return findTemplate(client, boardId, given);
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    throw new UsageError(`cannot read ${file}`);
  }
}

function templateText(template: TemplateT): string {
  const lines = [`template ${template.id} ${template.name} (board ${template.boardId})`];
  if (template.description.trim()) lines.push(template.description.trimEnd());
  lines.push(`variables: ${template.variables.join(", ") || "none"}`, "");
  lines.push(
    table(
      ["KEY", "TITLE", "LANE", "PRI", "TAGS", "PARENT", "BLOCKED BY"],
      template.tickets.map((one) => [
        one.key,
        one.title,
        one.laneName ?? "",
        one.priority,
        one.tagNames.join(","),
        one.parentKey ?? "",
        one.blockerKeys.join(","),
      ]),
    ),
  );
  return lines.join("\n");
}
