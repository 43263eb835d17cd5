import type { BoardT, TicketSummary } from "./api-types.js";
import { ApiError } from "./errors.js";
import type { TackClient } from "./tack-client.js";
import { waitingLines, waitingTickets } from "./waiting.js";
import { atLimitLine, lanesAtLimit } from "./wip-limits.js";

// What an agent needs at the start of a session (and after its context was compacted): how to
// work a tack board, then the live state. `tack prime` prints it and the MCP server sends it as
// its instructions. Kept well under ~1,500 tokens: at most MAX_BOARDS boards, READY_SHOWN ready
// tickets and CLAIMS_SHOWN claims each.

const MAX_BOARDS = 5;
const READY_SHOWN = 5;
const CLAIMS_SHOWN = 5;
const TITLE_MAX = 80;
const NAMES_SHOWN = 20;

export const WORKFLOW = `# Working with tack (a local kanban board)
Tickets live on boards, in lanes; ids are numbers. Tools are named first, the tack command second.
1. Find work: \`ready\` (\`tack ready\`) lists tickets you may start now: unresolved, unblocked, not containers, unclaimed; highest priority first.
2. Take one: \`claim_next\` (\`tack next\`) claims the top ready ticket atomically, or \`claim\` (\`tack claim <id>\`) a given one. A claim is a lease (15 min by default): no one else gets the ticket while it lasts.
3. Keep it: \`renew_claim\` (\`tack renew <id>\`) before the lease ends on long work.
4. Leave a trail: \`comment\` (\`tack comment add\`) for decisions and notes people read; \`log_event\` (\`tack event log\`) for progress, test results, blockers.
5. Change tickets with \`update_ticket\` (\`tack ticket edit\`); pass the version you read as expectedVersion (\`--if-version\`): if someone changed it meanwhile you get a version conflict, so read it again and redo your change.
6. Finish: \`release\` with outcome done (resolves the ticket), blocked (with a reason) or handoff (with a note) (\`tack release <id> --done|--blocked|--handoff\`).
7. Need a person's decision? \`ask_human\` (\`tack ask <id> "question" --wait 5m\`) asks on the ticket and waits for the answer; an open blocking ask keeps the ticket out of the ready queue. If the wait ends first, do other work and check later with \`get_ask\` (\`tack ask show <ask> --wait 5m\`).
Errors say what went wrong and how to fix it; "claimed by X" means take another ticket. Split big work with \`create_tickets\` (parent, blockers) and \`link_tickets\`.`;

export interface PrimeOptions {
  boardId?: number | undefined;
}

export async function primeText(client: TackClient, options: PrimeOptions = {}): Promise<string> {
  let state: string;
  try {
    state = await liveState(client, options);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    state = `## Live state unavailable\n${error.message}. ${error.hint}.`;
  }
  return `${WORKFLOW}\n\n${state}\n`;
}

async function liveState(client: TackClient, options: PrimeOptions): Promise<string> {
  const all = await client.listBoards();
  const boards =
    options.boardId === undefined ? all : all.filter((board) => board.id === options.boardId);
  const lines = [`## Live state (server ${client.url}, you are "${client.actor}")`];
  if (boards.length === 0) {
    lines.push(
      options.boardId === undefined
        ? "No boards yet: create one with `tack board create <name>`."
        : `Board ${options.boardId} does not exist.`,
    );
    return lines.join("\n");
  }
  if (boards.length > 1) {
    lines.push(`${boards.length} boards: pass boardId (--board) to tools that list or create.`);
  }
  for (const board of boards.slice(0, MAX_BOARDS)) lines.push(...(await boardState(client, board)));
  if (boards.length > MAX_BOARDS) {
    lines.push(`(${boards.length - MAX_BOARDS} more boards: \`tack boards\`)`);
  }
  return lines.join("\n");
}

async function boardState(client: TackClient, board: BoardT): Promise<string[]> {
  const [shell, tickets] = await Promise.all([
    client.getBoard(board.id),
    client.listTickets(board.id),
  ]);
  const lanes = capped(shell.lanes.map((lane) => `${lane.id} ${lane.name}`));
  const tags = capped(shell.tags.map((tag) => tag.name)) || "none";
  const open = tickets.filter((ticket) => !ticket.isResolved).length;
  const lines = [
    `### Board ${board.id} "${board.name}": ${open} open of ${tickets.length} tickets`,
    `Lanes (id name): ${lanes}. Tags: ${tags}.`,
  ];
  const full = atLimitLine(lanesAtLimit(shell.lanes, tickets));
  if (full !== "") lines.push(full);
  lines.push(...waitingLines(await waitingTickets(client, board.id, tickets), 3));
  const mine = tickets.filter((ticket) => ticket.claim?.actor === client.actor);
  if (mine.length > 0) {
    lines.push(`Your claims (${mine.length}):`);
    for (const ticket of mine.slice(0, CLAIMS_SHOWN)) {
      lines.push(`- ${line(ticket)}, lease until ${ticket.claim?.expiresAt}`);
    }
  }
  let ready: TicketSummary[] | undefined;
  try {
    ready = await client.listTickets(board.id, { ready: true });
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "invalid_request") throw error;
  }
  if (ready === undefined) {
    lines.push("Ready queue: not supported by this server.");
  } else if (ready.length === 0) {
    lines.push("Ready: nothing right now.");
  } else {
    lines.push(`Ready (${ready.length}, top ${Math.min(READY_SHOWN, ready.length)}):`);
    for (const ticket of ready.slice(0, READY_SHOWN)) lines.push(`- ${line(ticket)}`);
  }
  return lines;
}

function capped(names: string[]): string {
  const shown = names.slice(0, NAMES_SHOWN).join(", ");
  return names.length > NAMES_SHOWN ? `${shown} (+${names.length - NAMES_SHOWN} more)` : shown;
}

function line(ticket: TicketSummary): string {
  const title =
    ticket.title.length > TITLE_MAX ? `${ticket.title.slice(0, TITLE_MAX - 1)}…` : ticket.title;
  return `#${ticket.id} p${ticket.priority} ${title}`;
}
