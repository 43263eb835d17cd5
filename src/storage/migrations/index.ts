import { initialSchema } from "./001-initial.js";
import { searchIndexSchema } from "./005-search-index.js";

/**
 * Ordered list of schema migrations. The database's `PRAGMA user_version` records how many have
 * been applied; never edit or reorder an entry that has shipped, only append.
 */
export const migrations: readonly string[] = [initialSchema, searchIndexSchema];
