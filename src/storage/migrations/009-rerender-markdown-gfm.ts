import type { Db } from "../db.js";
import { rerenderMarkdown } from "./006-rerender-markdown.js";
import type { MigrationContext } from "./migration.js";

/**
 * Bodies render as GitHub renders them now (its autolinks, `<del>`, raw HTML the allowlist does
 * not keep shown as the text typed instead of removed: src/domain/markdown.ts), so the stored HTML
 * of every ticket, comment and tracked remote body is rendered again from its Markdown, the same
 * way migration 006 did.
 */
export function rerenderMarkdownAsGithub(db: Db, context: MigrationContext): void {
  rerenderMarkdown(db, context);
}
