import type { Stores } from "../../storage/index.js";
import type { ActivityRecorder } from "../activity.js";
import type { BoardService } from "../boards/boards.js";
import type { Read, Transact } from "../transaction.js";
import type { TrashKeeper } from "../trash/trash-keeper.js";
import { ticketBulkService } from "./ticket-bulk.js";
import { type ReadyHeadSlot, ticketClaimService } from "./ticket-claims.js";
import { ticketEdits } from "./ticket-edits.js";
import { ticketMoveService, ticketMoves } from "./ticket-moves.js";
import { ticketLanes } from "./ticket-ordering.js";
import { ticketPositionService } from "./ticket-positions.js";
import { ticketLinkRules } from "./ticket-relations.js";
import { ticketViews } from "./ticket-views.js";
import { ticketService } from "./tickets.js";

/** Wires the ticket modules (services.ts stays a short list of families). */
export function createTicketServices(
  stores: Stores,
  boards: Pick<BoardService, "require">,
  activity: ActivityRecorder,
  transact: Transact,
  read: Read,
  trash: TrashKeeper,
  /** The keeper of the ready order claim-next asks first (services.ts `answerSources`). */
  readyHeads: ReadyHeadSlot,
) {
  const lanes = ticketLanes(stores);
  const views = ticketViews(stores, read);
  const edits = ticketEdits(stores, ticketLinkRules(stores), lanes, activity);
  const moves = ticketMoves(stores, { lanes, edits, activity });
  return {
    tickets: ticketService(stores, { boards, lanes, edits, views, activity }, transact, trash),
    ticketViews: views,
    ticketPositions: ticketPositionService(stores, { boards, lanes, views, activity }, transact),
    ticketMoves: ticketMoveService(stores, { moves, edits, views }, transact),
    ticketBulk: ticketBulkService(stores, { boards, lanes, edits, moves, views }, transact),
    ticketClaims: ticketClaimService(stores, { boards, views, activity, readyHeads }, transact),
  };
}
