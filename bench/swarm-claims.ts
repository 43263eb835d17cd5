/**
 * The swarm's check that no ticket was held by two live claims at once, from the server's own
 * record: each ticket's activity in commit order (ids ascending) must alternate
 * `ticket_claimed` and `ticket_released` (the leases outlast the run, so none expires).
 */
import { type Client, inParallel } from "./lib.js";

export interface ActivityEntry {
  id: number;
  action: string;
  details: { actor?: string };
}

/** Reads the activity of every ticket in `ticketIds`; returns one line per second live claim. */
export async function auditClaims(client: Client, ticketIds: number[]): Promise<string[]> {
  const problems: string[] = [];
  await inParallel(ticketIds.length, 4, async (index) => {
    const ticketId = ticketIds[index] as number;
    const answer = await client.call("GET", `/api/tickets/${ticketId}/activity`);
    if (answer.status !== 200) {
      problems.push(`ticket ${ticketId}: activity answered ${answer.status}`);
      return;
    }
    problems.push(...overlappingClaims(ticketId, answer.body.activity as ActivityEntry[]));
  });
  return problems;
}

/** Each `ticket_claimed` that came while another actor's claim had not been released. */
export function overlappingClaims(ticketId: number, activity: ActivityEntry[]): string[] {
  const problems: string[] = [];
  let holder: string | null = null;
  for (const entry of [...activity].sort((a, b) => a.id - b.id)) {
    if (entry.action === "ticket_claimed") {
      if (holder !== null) {
        problems.push(
          `ticket ${ticketId}: claimed by ${entry.details.actor} while ${holder} held it`,
        );
      }
      holder = entry.details.actor ?? "?";
    } else if (entry.action === "ticket_released") {
      holder = null;
    }
  }
  return problems;
}
