import type { BoardEventBus } from "../events/board-events.js";
import { exportSnapshots } from "../storage/board-export-snapshot.js";
import type { Db } from "../storage/database.js";
import { createStores } from "../storage/index.js";
import { accessTokens } from "./access/access-tokens.js";
import { activityLog, activityRecorder } from "./activity.js";
import { commentService } from "./annotations/comments.js";
import { externalReferenceService } from "./annotations/external-references.js";
import { tagReasonService } from "./annotations/tag-reasons.js";
import { ticketEventService } from "./annotations/ticket-events.js";
import { askWaiters } from "./asks/ask-waiters.js";
import { askService, recheckWaitersAfter } from "./asks/asks.js";
import { boardService } from "./boards/boards.js";
import { boardFirstView } from "./boards/first-view.js";
import { laneService } from "./boards/lanes.js";
import { tagService } from "./boards/tags.js";
import { type EntityTags, entityTags } from "./entity-tags.js";
import { idempotencyService } from "./idempotency.js";
import { insightsService } from "./insights/insights.js";
import { createRemoteServices, NO_REMOTE_ACCESS } from "./remote-tracking/remote-services.js";
import type { RemoteAccess } from "./remote-tracking/remote-tracking.js";
import { searchIndexer } from "./search-indexer.js";
import { templateService } from "./templates/templates.js";
import { claimSettlement, type ReadyHeadSlot, type ReadyHeads } from "./tickets/ticket-claims.js";
import { createTicketServices } from "./tickets/ticket-services.js";
import { type BoardChanges, createRead, createTransact } from "./transaction.js";
import { boardExporter } from "./transfer/board-export.js";
import { boardImporter } from "./transfer/board-import.js";
import { trashService } from "./trash/trash.js";
import { DEFAULT_TRASH_DAYS, trashKeeper } from "./trash/trash-keeper.js";

/**
 * Wires the domain modules together over one database. Each service receives only the stores and
 * sibling services it uses, so its dependencies are visible in its signature.
 */
export function createServices(
  db: Db,
  bus: BoardEventBus,
  remote: RemoteAccess = NO_REMOTE_ACCESS,
  /** Called after every commit (the server checkpoints the log off the main thread). */
  committed: () => void = () => {},
  /**
   * How long deleted objects stay in the trash (docs/api.md, "The trash"; 0: deletes erase at
   * once).
   */
  trashDays: number = DEFAULT_TRASH_DAYS,
) {
  const stores = createStores(db);
  const trash = trashKeeper(stores.trash, trashDays);
  const activity = activityRecorder(stores.activity);
  // Coordination (docs/api.md, "Coordination for agents"): claims end and changed tickets are
  // collected before each commit; board revisions advance right after it.
  let tags: EntityTags | undefined;
  // What the answer layer keeps (src/kept-answers) hears of every commit here.
  const commitListeners: Array<(changes: BoardChanges) => void> = [];
  // Callers waiting on asks (GET /api/asks/{id}?wait=): re-checked after commits that delete
  // their ticket.
  const waiters = askWaiters();
  const recheckWaiters = recheckWaitersAfter(waiters, stores.tickets);
  const transact = createTransact(db, bus, {
    beforeCommit: claimSettlement(stores, activity),
    afterCommit: (changes) => {
      tags?.advance(changes);
      for (const listener of commitListeners) listener(changes);
      recheckWaiters(changes);
      committed();
    },
  });
  tags = entityTags(stores, transact);
  const searchIndex = searchIndexer(stores.searchIndex, transact);
  const boards = boardService(stores, transact, trash);
  const lanes = laneService(stores, boards, transact, trash);
  const boardTags = tagService(stores, boards, activity, transact, trash);
  const read = createRead(db);
  const firstView = boardFirstView(stores, read);
  const readyHeads: ReadyHeadSlot = {};
  const { ticketViews, ...ticketFamily } = createTicketServices(
    stores,
    boards,
    activity,
    transact,
    read,
    trash,
    readyHeads,
  );
  const ticketDeps = { tickets: ticketFamily.tickets, activity };
  const ticketExtras = {
    comments: commentService(stores, ticketDeps, transact, trash),
    asks: askService(stores, { boards, activity, waiters }, transact),
    activity: activityLog(stores.activity, {
      exists: (ticketId: number) => stores.tickets.get(ticketId) !== undefined,
    }),
    ticketEvents: ticketEventService(stores, ticketDeps, transact),
    tagReasons: tagReasonService(stores, ticketDeps, transact),
    externalReferences: externalReferenceService(stores, ticketDeps, transact),
    boardExport: boardExporter(exportSnapshots(db)),
    boardImport: boardImporter(stores, { boards, activity, searchIndex }, transact),
    insights: insightsService(stores, boards, read),
    templates: templateService(
      stores,
      { boards, tickets: ticketFamily.tickets, tags: boardTags },
      transact,
    ),
  };
  const remoteFamily = createRemoteServices(stores, { boards, ...ticketDeps, remote }, transact);
  // `events` is the after-commit change feed the board stream subscribes to.
  const coordination = {
    entityTags: tags,
    idempotency: idempotencyService(stores.idempotencyKeys),
  };
  // Remote access (docs/api.md, "Access tokens"): the server checks tokens and sessions through it.
  const accessTokenService = accessTokens(stores.accessTokens);
  /**
   * What the answer layer (src/kept-answers: it keeps lists and tickets as bytes between
   * requests) reads: the stores it re-reads changed tickets from, snapshots, the ticket views,
   * and every commit's BoardChanges, handed over right after the commit, before any
   * notification; and where it hands claim-next its kept ready order (`keepReadyHeads`: the
   * domain's port, tickets/ticket-claims.ts `ReadyHeads`).
   */
  const answerSources = {
    stores,
    read,
    inUnitOfWork: () => db.inTransaction,
    views: ticketViews,
    onCommit(listener: (changes: BoardChanges) => void): void {
      commitListeners.push(listener);
    },
    keepReadyHeads(heads: ReadyHeads): void {
      readyHeads.heads = heads;
    },
  };
  return {
    boards,
    boardFirstView: firstView,
    lanes,
    tags: boardTags,
    ...ticketFamily,
    ...ticketExtras,
    ...remoteFamily,
    ...coordination,
    searchIndex,
    accessTokens: accessTokenService,
    trash: trashService(stores, activity, transact),
    events: bus,
    answerSources,
  };
}

export type Services = ReturnType<typeof createServices>;
