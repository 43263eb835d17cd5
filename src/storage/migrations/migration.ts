import type { Db } from "../db.js";

/**
 * What a migration may need beyond the database: the domain's Markdown renderer, handed in by
 * whoever opens the database, since storage does not reach into the domain.
 */
export interface MigrationContext {
  renderMarkdown(markdown: string): string;
  /** The checklist counts of a ticket body (domain/tickets/checklists.ts). */
  countChecklist(markdown: string): { done: number; total: number };
}

/**
 * One schema migration: SQL to execute, or a function for steps SQL alone cannot express
 * (rebuilding tables from their stored definitions, re-rendering stored HTML). Each runs inside
 * the one migration transaction, with foreign keys off and checked before commit.
 */
export type Migration = string | ((db: Db, context: MigrationContext) => void);
