/**
 * Search folding (CONTRACT.md §6): matching is case-insensitive over Unicode and literal.
 * SQLite's lower() and LIKE only fold ASCII, so every searchable row stores a `search_text`
 * column folded here, and queries fold `q` the same way before a plain substring match (instr).
 */
export function foldForSearch(text: string): string {
  return text.normalize("NFC").toLowerCase();
}

/** Joins the searchable parts of a row into its folded `search_text` (newline-separated). */
export function searchTextOf(...parts: Array<string | null | undefined>): string {
  return foldForSearch(parts.filter((part): part is string => !!part).join("\n"));
}

/** A ticket's own searchable text: its title and Markdown body (every ticket write uses this). */
export function ticketSearchText(title: string, bodyMarkdown: string): string {
  return searchTextOf(title, bodyMarkdown);
}
