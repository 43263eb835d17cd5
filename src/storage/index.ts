import { activityStore } from "./activity.js";
import { boardStore } from "./boards.js";
import { commentStore } from "./comments.js";
import type { Db } from "./database.js";
import { externalReferenceStore } from "./external-references.js";
import { laneStore } from "./lanes.js";
import { remoteLinkStore } from "./remote-links.js";
import { tagStore } from "./tags.js";

/** Every store over one database, each with its statements prepared once. */
export function createStores(db: Db) {
  return {
    boards: boardStore(db),
    lanes: laneStore(db),
    tags: tagStore(db),
    activity: activityStore(db),
    comments: commentStore(db),
    externalReferences: externalReferenceStore(db),
    remoteLinks: remoteLinkStore(db),
  };
}

export type Stores = ReturnType<typeof createStores>;
