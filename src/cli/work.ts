import type { Command } from "commander";
import { chooseBoard } from "../client/board-choice.js";
import { primeText } from "../client/prime.js";
import { finishClaim, type Outcome } from "../client/ticket-operations.js";
import { waitingLines, waitingTickets } from "../client/waiting.js";
import { atLimitLine, lanesAtLimit } from "../client/wip-limits.js";
import { LEASE_DEFAULT_SECONDS, LEASE_MAX_SECONDS, LEASE_MIN_SECONDS } from "../model/limits.js";
import {
  clientCommand,
  handler,
  laneFlag,
  PRIORITY_ARG,
  parseId,
  parseIntIn,
  priorityFlag,
} from "./command-kit.js";
import { EXIT, UsageError } from "./exit-codes.js";
import { ticketTable, ticketText } from "./ticket-format.js";
import { showTicket } from "./tickets.js";

// The agent's loop: prime, ready, next, claim, renew, release (docs/api.md, "Coordination for
// agents").

export function registerWorkCommands(program: Command): void {
  clientCommand(
    program,
    "prime",
    "Print the workflow and the live state an agent needs (for session-start hooks).",
    ["tack prime", "TACK_ACTOR=agent-1 tack prime --board 2"],
    { board: true },
  ).action(
    handler(async ({ client, board, output }) => {
      const text = await primeText(client, { boardId: board });
      output.emit({ text }, [], () => text.trimEnd());
    }),
  );

  withReadyFilters(
    clientCommand(
      program,
      "ready",
      "List the tickets that may be started now (unresolved, unblocked, unclaimed), best first; the table also names tickets waiting on an ask or a moment.",
      [
        "tack ready",
        "tack ready --tag backend --limit 5",
        "tack ready --json | jq '.tickets[0].id'",
      ],
      { board: true },
    ),
  )
    .option("--limit <n>", "at most this many")
    .action(
      handler(async ({ client, board, flags, output }) => {
        const boardId = await chooseBoard(client, board);
        // Lanes and the board's load only when a table is printed (the table names the lanes at
        // their WIP limit): --json (the API's answer) and -q skip the calls.
        const table = !(flags.json || flags.quiet);
        const needLanes = flags.lane !== undefined || table;
        const lanes = needLanes ? await client.listLanes(boardId) : [];
        const [ready, all] = await Promise.all([
          client.listTickets(boardId, {
            ready: true,
            lane_id: laneFlag(lanes, flags.lane)?.id,
            tag: flags.tag as string | undefined,
          }),
          table ? client.listTickets(boardId) : Promise.resolve([]),
        ]);
        let tickets = ready;
        const full = lanesAtLimit(lanes, all);
        const waiting = table
          ? await waitingTickets(client, boardId, all)
          : { onAsks: [], until: [] };
        const priority = priorityFlag(flags.priority);
        if (priority !== undefined) {
          tickets = tickets.filter((ticket) => ticket.priority === priority);
        }
        if (flags.limit !== undefined) {
          tickets = tickets.slice(0, parseIntIn(String(flags.limit), "--limit", 1, 1_000_000));
        }
        output.emit(
          { tickets },
          tickets.map((ticket) => ticket.id),
          () =>
            [ticketTable(tickets, lanes), atLimitLine(full), ...waitingLines(waiting)]
              .filter(Boolean)
              .join("\n"),
        );
      }),
    );

  withReadyFilters(
    clientCommand(
      program,
      "next",
      "Claim the next ready ticket (atomically) and print it; exit 3 when none is ready.",
      ["tack next", "tack next --tag backend --lease 3600", "id=$(tack next -q) && tack show $id"],
      { board: true },
    ),
  )
    .option("--lease <seconds>", `lease length, ${LEASE_RANGE}`)
    .action(
      handler(async ({ client, board, flags, output }) => {
        const boardId = await chooseBoard(client, board);
        const lanes = await client.listLanes(boardId);
        const ticket = await client.claimNext(boardId, {
          laneId: laneFlag(lanes, flags.lane)?.id,
          tag: flags.tag as string | undefined,
          priority: priorityFlag(flags.priority),
          leaseSeconds: lease(flags.lease),
        });
        if (ticket === null) {
          if (output.json) process.stdout.write("null\n");
          else if (!flags.quiet) console.error("tack: no ticket is ready");
          process.exitCode = EXIT.notFound;
          return;
        }
        output.emit(ticket, [ticket.id], () => ticketText(ticket, lanes));
      }),
    );

  // Claiming a ticket one already holds renews it (docs/api.md, "Coordination for agents"): `renew`
  // is `claim` by its everyday name, one action for both.
  const claimOrRenew = handler(async ({ client, flags, output }, id) => {
    const ticket = await client.claim(parseId(id as string, "ticket"), {
      leaseSeconds: lease(flags.lease),
    });
    output.emit(ticket, [ticket.id], () => claimLine(ticket));
  });

  clientCommand(
    program,
    "claim <ticket>",
    "Claim a ticket for --actor (a lease); claiming your own claim again renews it.",
    ["tack claim 42", "tack claim 42 --lease 3600 --actor agent-2"],
  )
    .option("--lease <seconds>", `lease length, ${LEASE_RANGE}`)
    .action(claimOrRenew);

  clientCommand(
    program,
    "renew <ticket>",
    "Extend your claim's lease (a heartbeat for long work).",
    ["tack renew 42", "tack renew 42 --lease 1800"],
  )
    .option("--lease <seconds>", `new lease length from now, ${LEASE_RANGE}`)
    .action(claimOrRenew);

  clientCommand(
    program,
    "release <ticket>",
    "End your claim: --done resolves the ticket, --blocked/--handoff leave it open with a comment.",
    [
      "tack release 42",
      "tack release 42 --done",
      'tack release 42 --blocked "needs the API key from ops"',
      'tack release 42 --handoff "tests pass; docs left"',
    ],
  )
    .option("--done", "resolve the ticket")
    .option("--blocked <reason>", "leave it open; the reason becomes a comment")
    .option("--handoff <note>", "leave it open; the note becomes a comment")
    .action(
      handler(async ({ client, flags, output }, id) => {
        const ticketId = parseId(id as string, "ticket");
        const chosen = ["done", "blocked", "handoff"].filter((name) => flags[name] !== undefined);
        if (chosen.length > 1) throw new UsageError("choose one of --done, --blocked, --handoff");
        const ticket =
          chosen.length === 0
            ? await client.release(ticketId)
            : await finishClaim(
                client,
                ticketId,
                chosen[0] as Outcome,
                typeof flags[chosen[0] as string] === "string"
                  ? (flags[chosen[0] as string] as string)
                  : undefined,
              );
        output.emit(
          ticket,
          [ticket.id],
          () => `#${ticket.id} released${ticket.isResolved ? " (resolved)" : ""}`,
        );
      }),
    );

  clientCommand(program, "show <ticket>", "Show a ticket (same as `tack ticket show`).", [
    "tack show 42",
  ]).action(showTicket);
}

/** `--lane`, `--tag` and `--priority`: what `ready` lists and `next` claims from narrowed. */
function withReadyFilters(command: Command): Command {
  return command
    .option("--lane <lane>", "only this lane (id or name)")
    .option("--tag <name>", "only tickets with this tag")
    .option(`--priority ${PRIORITY_ARG}`, "only this priority");
}

/** The lease bounds of docs/api.md, "Coordination for agents" (model/limits.ts), as help shows them. */
const LEASE_RANGE = `${LEASE_MIN_SECONDS}-${LEASE_MAX_SECONDS} (server default ${LEASE_DEFAULT_SECONDS})`;

function lease(value: unknown): number | undefined {
  return value === undefined
    ? undefined
    : parseIntIn(String(value), "--lease", LEASE_MIN_SECONDS, LEASE_MAX_SECONDS);
}

function claimLine(ticket: { id: number; claim?: { actor: string; expiresAt: string } | null }) {
  return ticket.claim
    ? `#${ticket.id} claimed by ${ticket.claim.actor} until ${ticket.claim.expiresAt}`
    : `#${ticket.id} is not claimed`;
}
