import type { Migration } from "./migration.js";

export type { Migration, MigrationContext } from "./migration.js";

import { initialSchema } from "./001-initial.js";
import { idsNeverReused } from "./002-ids-never-reused.js";
import { boardPositionsContiguous } from "./003-board-positions.js";
import { coordinationSchema } from "./004-coordination.js";
import { searchIndexSchema } from "./005-search-index.js";
import { rerenderMarkdown } from "./006-rerender-markdown.js";
import { searchIndexParts } from "./007-search-index-parts.js";
import { flowSchema } from "./008-flow.js";
import { rerenderMarkdownAsGithub } from "./009-rerender-markdown-gfm.js";
import { accessTokensSchema } from "./010-access-tokens.js";
import { trashSchema } from "./011-trash.js";
import { flowHistoriesSchema } from "./012-flow-histories.js";
import { flowHistoryRevisionsSchema } from "./013-flow-history-revisions.js";
import { titleSearch } from "./014-title-search.js";
import { flowEntryTest } from "./015-flow-entry-test.js";
import { developerInTheLoopSchema } from "./016-developer-in-the-loop.js";
import { checklistsSchema } from "./017-checklists.js";
import { rerenderMarkdownRealDocuments } from "./018-rerender-markdown-real-documents.js";
import { readyWalkIndex } from "./019-ready-walk-index.js";
import { titleIndexedInline } from "./020-title-indexed-inline.js";
import { searchMergesBounded } from "./021-search-merges-bounded.js";

/**
 * Ordered list of schema migrations. The database's `PRAGMA user_version` records how many have
 * been applied; never edit or reorder an entry that has shipped, only append.
 */
export const migrations: readonly Migration[] = [
  initialSchema,
  idsNeverReused,
  boardPositionsContiguous,
  coordinationSchema,
  searchIndexSchema,
  rerenderMarkdown,
  searchIndexParts,
  flowSchema,
  rerenderMarkdownAsGithub,
  accessTokensSchema,
  trashSchema,
  flowHistoriesSchema,
  flowHistoryRevisionsSchema,
  titleSearch,
  flowEntryTest,
  developerInTheLoopSchema,
  checklistsSchema,
  rerenderMarkdownRealDocuments,
  readyWalkIndex,
  titleIndexedInline,
  searchMergesBounded,
];
