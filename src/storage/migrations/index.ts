import { initialSchema } from "./001-initial.js";
import { coordinationSchema } from "./004-coordination.js";

/**
 * Ordered list of schema migrations. The database's `PRAGMA user_version` records how many have
 * been applied; never edit or reorder an entry that has shipped, only append.
 */
// 004 is appended as the second entry on this branch; 002 and 003 land on main separately and
// the entries are put in number order when the branches meet.
export const migrations: readonly string[] = [initialSchema, coordinationSchema];
