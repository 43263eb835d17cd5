import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";
import fastJson from "fast-json-stringify";
import { useClock } from "../../src/domain/clock.js";
import { renderMarkdown } from "../../src/domain/markdown.js";
import type { Ticket, TicketSummary } from "../../src/domain/model.js";
import { createServices } from "../../src/domain/services.js";
import { checklistOf } from "../../src/domain/tickets/checklists.js";
import type { TicketListQuery } from "../../src/domain/tickets/tickets.js";
import { BoardEventBus } from "../../src/events/board-events.js";
import { namedSchemas } from "../../src/http/schemas/index.js";
import { TicketRef, TicketSummaryRef } from "../../src/http/schemas/tickets.js";
import { type KeptAnswerOptions, keptAnswers } from "../../src/kept-answers/index.js";
import { openDatabase } from "../../src/storage/database.js";

/**
 * The kept answers (src/kept-answers) over a real database and the real domain services, with
 * no HTTP: what they answer is compared with the domain's fresh objects serialized by the same
 * serializers as the routes' (fast-json-stringify over the route schemas).
 */

type Schema = Parameters<typeof fastJson>[0];
const external = Object.fromEntries(
  namedSchemas.map((schema) => [schema.$id as string, schema as unknown as Schema]),
);
const listSerializer = fastJson(
  { type: "object", properties: { tickets: { type: "array", items: TicketSummaryRef } } } as Schema,
  { schema: external },
);
export const serializeTicket = fastJson(TicketRef as unknown as Schema, { schema: external }) as (
  ticket: Ticket,
) => string;
export const serializeList = (tickets: TicketSummary[]): string => listSerializer({ tickets });
/** One summary as it is written inside a list (what the route hands the kept lists). */
export const serializeSummary = (summary: TicketSummary): string =>
  serializeList([summary]).slice('{"tickets":['.length, -"]}".length);

export function setUp(options: KeptAnswerOptions = { runLength: 2 }) {
  const folder = mkdtempSync(join(tmpdir(), "tack-kept-"));
  const db = openDatabase(join(folder, "tack.sqlite"), {
    renderMarkdown,
    countChecklist: checklistOf,
  });
  const services = createServices(db, new BoardEventBus());
  const kept = keptAnswers(services.answerSources, options);
  let clock = Date.parse("2030-01-01T00:00:00.000Z");
  const restoreClock = useClock(() => clock);
  after(() => {
    restoreClock();
    db.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** The kept list's text: its runs inside the wrapper, the last comma left out. */
  function keptList(boardId: number, query: TicketListQuery): string | undefined {
    const runs = kept.listRuns(boardId, query, serializeSummary);
    if (!runs) return undefined;
    const text = Buffer.concat(runs).toString("utf8");
    return `{"tickets":[${text.slice(0, text.length > 0 ? -1 : 0)}]}`;
  }

  return {
    db,
    services,
    kept,
    keptList,
    freshList: (boardId: number, query: TicketListQuery): string =>
      serializeList(services.tickets.list(boardId, query)),
    /** The kept Ticket answer as text. */
    keptTicket: (ticketId: number): string | Buffer => kept.ticketJson(ticketId, serializeTicket),
    freshTicket: (ticketId: number): string => serializeTicket(services.tickets.get(ticketId)),
    advance(seconds: number): void {
      clock += seconds * 1000;
    },
    at: (seconds: number): string => new Date(clock + seconds * 1000).toISOString(),
  };
}
