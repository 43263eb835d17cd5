import { accessTokenStore } from "./access-tokens.js";
import { activityStore } from "./activity.js";
import { askStore } from "./asks.js";
import { boardImportStore } from "./board-export.js";
import { boardStore } from "./boards.js";
import { commentStore } from "./comments.js";
import type { Db } from "./database.js";
import { externalReferenceStore } from "./external-references.js";
import { firstViewStore } from "./first-view.js";
import { flowHistoryStore } from "./flow-history.js";
import { idempotencyKeyStore } from "./idempotency-keys.js";
import { importStagingStore } from "./import-staging.js";
import { laneStore } from "./lanes.js";
import { remoteLinkStore } from "./remote-links.js";
import { searchIndexStore } from "./search-index.js";
import { tagReasonStore } from "./tag-reasons.js";
import { tagStore } from "./tags.js";
import { templateStore } from "./templates.js";
import { ticketChangeStore } from "./ticket-changes.js";
import { ticketClaimStore } from "./ticket-claims.js";
import { ticketEventStore } from "./ticket-events.js";
import { ticketLinkStore } from "./ticket-links.js";
import { ticketPlacementStore } from "./ticket-placements.js";
import { ticketReadinessStore } from "./ticket-readiness.js";
import { ticketRelationStore } from "./ticket-relations.js";
import { ticketTagStore } from "./ticket-tags.js";
import { ticketStore } from "./tickets.js";
import { trashStore } from "./trash.js";

/** Every store over one database, each with its statements prepared once. */
export function createStores(db: Db) {
  return {
    boards: boardStore(db),
    lanes: laneStore(db),
    tags: tagStore(db),
    activity: activityStore(db),
    flowHistory: flowHistoryStore(db),
    comments: commentStore(db),
    asks: askStore(db),
    externalReferences: externalReferenceStore(db),
    remoteLinks: remoteLinkStore(db),
    tickets: ticketStore(db),
    ticketTags: ticketTagStore(db),
    ticketRelations: ticketRelationStore(db),
    ticketLinks: ticketLinkStore(db),
    tagReasons: tagReasonStore(db),
    ticketEvents: ticketEventStore(db),
    ticketPlacements: ticketPlacementStore(db),
    firstView: firstViewStore(db),
    boardImport: boardImportStore(db),
    importStaging: importStagingStore(db),
    // Coordination (docs/api.md, "Coordination for agents"): version tracking first, its TEMP table
    // feeds the others.
    ticketChanges: ticketChangeStore(db),
    ticketClaims: ticketClaimStore(db),
    ticketReadiness: ticketReadinessStore(db),
    idempotencyKeys: idempotencyKeyStore(db),
    searchIndex: searchIndexStore(db),
    // Remote access (docs/api.md, "Access tokens").
    accessTokens: accessTokenStore(db),
    trash: trashStore(db),
    // Templates (docs/api.md, "Templates").
    templates: templateStore(db),
  };
}

export type Stores = ReturnType<typeof createStores>;
