/**
 * Search folding (docs/api.md, "Search"): matching is case-insensitive over Unicode and literal.
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

/**
 * A ticket's own searchable text, folded: `q` matches it when it occurs in
 * `searchTextOf(title, bodyMarkdown)`. Stored in two places (migrations/014-title-search.ts), the
 * title's on the ticket row and the body's in its text row, so a title edit never rewrites the
 * bodies. Folding each part alone gives the same text as folding them joined by a line break
 * (NFC and case mapping do not reach across one).
 */
export interface TicketSearchText {
  title: string;
  body: string;
}

/** A ticket's own searchable text: its title and Markdown body (every ticket write uses this). */
export function ticketSearchText(title: string, bodyMarkdown: string): TicketSearchText {
  return { title: foldForSearch(title), body: foldForSearch(bodyMarkdown) };
}
