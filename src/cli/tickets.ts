import type { Command } from "commander";
import type { Ticket, TicketPatchInput } from "../client/api-types.js";
import { chooseBoard } from "../client/board-choice.js";
import {
  findLane,
  findTags,
  type Relation,
  setRelation,
  updateAtVersion,
} from "../client/ticket-operations.js";
import { type BodyFlags, readBody, withBodyOptions } from "./body-input.js";
import {
  clientCommand,
  groupCommand,
  handler,
  laneFlag,
  PRIORITY_ARG,
  parseDuration,
  parseId,
  parseIntIn,
  priorityFlag,
} from "./command-kit.js";
import { UsageError } from "./exit-codes.js";
import { ticketTable, ticketText } from "./ticket-format.js";
import { howToRestore } from "./trash.js";

export function registerTicketCommands(program: Command): void {
  const ticket = groupCommand(program, "ticket", "List, show, create and change tickets.", [
    'tack ticket list --search "login"',
    'tack ticket create "Fix login" --priority 3 --tag backend',
    "tack ticket edit 42 --body-file - < notes.md",
    "tack ticket move 42 doing",
    "tack ticket resolve 42",
  ]);

  clientCommand(
    ticket,
    "list",
    "List tickets in board order (filters combine).",
    [
      "tack ticket list",
      "tack ticket list --lane doing --tag backend",
      'tack ticket list --search "#12" --archived all --json',
    ],
    { board: true },
  )
    .option("--lane <lane>", "only this lane (id or name)")
    .option("--tag <name>", "only tickets with this tag")
    .option("--resolved <bool>", "true or false")
    .option("--archived <which>", "false (default), true or all")
    .option("-s, --search <q>", "search text, #<id> or <provider>#<key>")
    .option("--ready", "only ready tickets (see `tack ready`)")
    .action(
      handler(async ({ client, board, flags, output }) => {
        const boardId = await chooseBoard(client, board);
        const lanes = await client.listLanes(boardId);
        const resolved =
          flags.resolved === undefined ? undefined : bool(flags.resolved, "--resolved");
        const archived = flags.archived as "true" | "false" | "all" | undefined;
        if (archived !== undefined && !["true", "false", "all"].includes(archived)) {
          throw new UsageError("--archived must be true, false or all");
        }
        const tickets = await client.listTickets(boardId, {
          lane_id: laneFlag(lanes, flags.lane)?.id,
          tag: flags.tag as string | undefined,
          resolved,
          archived,
          q: flags.search as string | undefined,
          ready: flags.ready === true ? true : undefined,
        });
        output.emit(
          { tickets },
          tickets.map((one) => one.id),
          () => ticketTable(tickets, lanes),
        );
      }),
    );

  clientCommand(ticket, "show <ticket>", "Show a ticket with its body, relations and comments.", [
    "tack ticket show 42",
    "tack ticket show 42 --json",
  ]).action(showTicket);

  const create = clientCommand(
    ticket,
    "create <title>",
    "Create a ticket (in the first lane unless --lane).",
    [
      'tack ticket create "Fix login"',
      'tack ticket create "Write docs" --lane todo --priority 3 --tag docs --parent 12',
      'echo "## Steps" | tack ticket create "Repro crash" --body-file -',
      'tack ticket create "Plan" --editor',
      'tack ticket create "Check the nightly run" --not-before 12h',
    ],
    { board: true },
  )
    .option("--lane <lane>", "lane id or name (default: the first lane)")
    .option(`--priority ${PRIORITY_ARG}`, "1 low, 2 medium (default), 3 high, 4 urgent")
    .option("--tag <names...>", "tag names")
    .option("--parent <ticket>", "parent ticket id")
    .option("--blocked-by <tickets...>", "ids of tickets that block this one");
  withBodyOptions(create, { bodyFlag: true })
    .option("--not-before <when>", NOT_BEFORE_HELP)
    .option("--idempotency-key <key>", "retry-safe: a repeat with this key creates nothing new")
    .action(
      handler(async ({ client, board, flags, output }, title) => {
        const boardId = await chooseBoard(client, board);
        const shell = await client.getBoard(boardId);
        const lane = laneFlag(shell.lanes, flags.lane) ?? shell.lanes[0];
        if (!lane) throw new UsageError("the board has no lanes");
        const bodyMarkdown = await readBody(flags as BodyFlags);
        const created = await client.createTicket(
          boardId,
          {
            laneId: lane.id,
            title: title as string,
            ...(bodyMarkdown === undefined ? {} : { bodyMarkdown }),
            ...(flags.priority === undefined ? {} : { priority: priorityFlag(flags.priority) }),
            ...(flags.tag === undefined
              ? {}
              : { tagIds: findTags(shell.tags, flags.tag as string[]) }),
            ...(flags.parent === undefined
              ? {}
              : { parentTicketId: parseId(String(flags.parent), "--parent") }),
            ...(flags.blockedBy === undefined
              ? {}
              : {
                  blockerIds: (flags.blockedBy as string[]).map((id) =>
                    parseId(id, "--blocked-by"),
                  ),
                }),
            ...(flags.notBefore === undefined
              ? {}
              : { notBefore: parseMoment(String(flags.notBefore), false) }),
          },
          flags.idempotencyKey as string | undefined,
        );
        output.emit(created, [created.id], () => `created #${created.id} ${created.title}`);
      }),
    );

  const edit = clientCommand(
    ticket,
    "edit <ticket>",
    "Change a ticket's fields; --if-version refuses if it changed.",
    [
      'tack ticket edit 42 --title "Fix login on Safari"',
      "tack ticket edit 42 --priority 4 --if-version 7",
      "tack ticket edit 42 --editor",
      "tack ticket edit 42 --body-file - < notes.md",
      "tack ticket edit 42 --not-before 2026-12-01T09:00:00+01:00",
    ],
  )
    .option("--title <title>", "new title")
    .option(`--priority ${PRIORITY_ARG}`, "new priority")
    .option("--lane <lane>", "lane id or name (appends to it)")
    .option("--tag <names...>", "replace the tags with these names");
  withBodyOptions(edit, { bodyFlag: true })
    .option("--not-before <when>", `${NOT_BEFORE_HELP}; none clears it`)
    .option("--if-version <n>", "only if the ticket is still at this version (exit 4 otherwise)")
    .action(
      handler(async ({ client, flags, output }, id) => {
        const ticketId = parseId(id as string, "ticket");
        const current = await client.getTicket(ticketId);
        const patch: TicketPatchInput = {};
        if (flags.title !== undefined) patch.title = flags.title as string;
        if (flags.priority !== undefined) {
          patch.priority = priorityFlag(flags.priority);
        }
        if (flags.lane !== undefined || flags.tag !== undefined) {
          const shell = await client.getBoard(current.boardId);
          if (flags.lane !== undefined) patch.laneId = findLane(shell.lanes, String(flags.lane)).id;
          if (flags.tag !== undefined) patch.tagIds = findTags(shell.tags, flags.tag as string[]);
        }
        if (flags.notBefore !== undefined) {
          patch.notBefore = parseMoment(String(flags.notBefore), true);
        }
        const bodyMarkdown = await readBody(flags as BodyFlags, current.bodyMarkdown);
        if (bodyMarkdown !== undefined) patch.bodyMarkdown = bodyMarkdown;
        if (Object.keys(patch).length === 0)
          throw new UsageError("nothing to change: give a field to set");
        const version =
          flags.ifVersion === undefined
            ? undefined
            : parseIntIn(String(flags.ifVersion), "--if-version", 1, Number.MAX_SAFE_INTEGER);
        const updated = await updateAtVersion(client, ticketId, patch, version);
        output.emit(updated, [updated.id], () => `updated #${updated.id} ${updated.title}`);
      }),
    );

  clientCommand(
    ticket,
    "move <ticket> <lane>",
    "Move a ticket to a lane (by name, as the transition endpoint).",
    ["tack ticket move 42 doing", "tack ticket move 42 done --resolve"],
  )
    .option("--resolve", "also resolve it")
    .action(
      handler(async ({ client, flags, output }, id, laneName) => {
        const moved = await client.transitionTicket(
          parseId(id as string, "ticket"),
          laneName as string,
          flags.resolve === true ? true : undefined,
        );
        output.emit(moved, [moved.id], () => `#${moved.id} moved to ${laneName}`);
      }),
    );

  const flagCommand = (name: string, description: string, patch: TicketPatchInput, done: string) =>
    clientCommand(ticket, `${name} <tickets...>`, description, [
      `tack ticket ${name} 42`,
      `tack ticket ${name} 42 43 44`,
    ]).action(
      handler(async ({ client, output }, ids) => {
        const updated: Ticket[] = [];
        for (const id of ids as unknown as string[]) {
          updated.push(await client.updateTicket(parseId(id, "ticket"), patch));
        }
        output.emit(
          updated.length === 1 ? updated[0] : updated,
          updated.map((one) => one.id),
          () => updated.map((one) => `#${one.id} ${done}`).join("\n"),
        );
      }),
    );
  flagCommand("resolve", "Resolve tickets (ends their claims).", { isResolved: true }, "resolved");
  flagCommand("reopen", "Reopen resolved tickets.", { isResolved: false }, "reopened");
  flagCommand("archive", "Archive tickets (ends their claims).", { isArchived: true }, "archived");
  flagCommand("restore", "Restore archived tickets.", { isArchived: false }, "restored");

  clientCommand(
    ticket,
    "delete <ticket>",
    "Delete a ticket (it stays in the trash until it expires: `tack trash restore`).",
    ["tack ticket delete 42"],
  ).action(
    handler(async ({ client, output }, id) => {
      const ticketId = parseId(id as string, "ticket");
      await client.deleteTicket(ticketId);
      const trashed = output.json ? "" : await howToRestore(client, "ticket", ticketId);
      output.emit({ deleted: ticketId }, [ticketId], () => `deleted #${ticketId}${trashed}`);
    }),
  );

  for (const remove of [false, true]) {
    const verb = remove ? "unlink" : "link";
    clientCommand(
      ticket,
      `${verb} <ticket>`,
      remove ? "Remove a relation." : "Add a relation: parent, blocks, blocked-by or related.",
      [
        `tack ticket ${verb} 42 --parent 12`,
        `tack ticket ${verb} 42 --blocked-by 40`,
        `tack ticket ${verb} 42 --blocks 43`,
        `tack ticket ${verb} 42 --related 17`,
      ],
    )
      .option("--parent <ticket>", "the parent ticket")
      .option("--blocks <ticket>", "the ticket this one blocks")
      .option("--blocked-by <ticket>", "the ticket that blocks this one")
      .option("--related <ticket>", "a related ticket")
      .action(
        handler(async ({ client, flags, output }, id) => {
          const given = (
            [
              ["parent", flags.parent],
              ["blocks", flags.blocks],
              ["blocked_by", flags.blockedBy],
              ["related", flags.related],
            ] as Array<[Relation, unknown]>
          ).filter(([, value]) => value !== undefined);
          if (given.length !== 1) {
            throw new UsageError("give exactly one of --parent, --blocks, --blocked-by, --related");
          }
          const [relation, other] = given[0] as [Relation, unknown];
          const updated = await setRelation(
            client,
            parseId(id as string, "ticket"),
            relation,
            parseId(String(other), `--${relation.replace("_", "-")}`),
            remove,
          );
          output.emit(
            updated,
            [updated.id],
            () => `#${updated.id} ${verb}ed (${relation.replace("_", " ")} #${other})`,
          );
        }),
      );
  }
}

const NOT_BEFORE_HELP =
  "not ready before this moment: an RFC 3339 date-time, or a delay from now such as 30m, 12h, 2d";

/**
 * A `--not-before` value: a delay from now (`30m`, `12h`, `2d`) becomes that moment; `none`
 * (where a ticket is edited) clears it; anything else goes to the server, which checks the
 * date-time and names the field if it is not one.
 */
function parseMoment(text: string, clearable: boolean): string | null {
  if (clearable && text === "none") return null;
  if (/^\d+[smhd]$/.test(text.trim())) {
    return new Date(
      Date.now() + parseDuration(text, "--not-before", 10 * 365 * 86_400) * 1000,
    ).toISOString();
  }
  return text;
}

function bool(value: unknown, name: string): boolean {
  if (value === "true") return true;
  if (value === "false") return false;
  throw new UsageError(`${name} must be true or false`);
}

/** `tack ticket show` and `tack show`: the ticket in full, its lane named from the board's lanes. */
export const showTicket = handler(async ({ client, output }, id) => {
  const ticket = await client.getTicket(parseId(id as string, "ticket"));
  const lanes = output.json ? [] : await client.listLanes(ticket.boardId);
  output.emit(ticket, [ticket.id], () => ticketText(ticket, lanes));
});
