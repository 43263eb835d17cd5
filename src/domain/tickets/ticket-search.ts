import { foldForSearch } from "../search-text.js";

/**
 * The three forms of the list's `q` (docs/api.md, "Search"), parsed once so storage only turns them
 * into SQL. `text` is always the whole query folded for search (domain/search-text.ts).
 */
export type TicketSearch =
  /** `#<n>`: the ticket with id n, plus tickets whose title or body contain `#<n>`. */
  | { kind: "id"; id: number | null; text: string }
  /** `<prefix>#<key>`: references with that issue key, plus title/body hits of the whole `q`. */
  | {
      kind: "reference";
      key: string;
      /** Provider id the reference must have, or null for any provider. */
      provider: string | null;
      /** Whether tracked remote links count. */
      remote: boolean;
      /** Whether external references count. */
      external: boolean;
      text: string;
    }
  /** Anything else: substring of title, body, id, `#id` and reference fields. */
  | { kind: "text"; text: string };

interface PrefixMeaning {
  provider: string | null;
  remote: boolean;
  external: boolean;
}

const tracked = (provider: string): PrefixMeaning => ({ provider, remote: true, external: true });

/** Prefixes are matched lower-cased; a Map so that names like `constructor` mean nothing. */
const PREFIXES = new Map<string, PrefixMeaning>([
  ["gh", tracked("github")],
  ["github", tracked("github")],
  ["gl", tracked("gitlab")],
  ["gitlab", tracked("gitlab")],
  ["rm", tracked("redmine")],
  ["redmine", tracked("redmine")],
  ["ext", { provider: null, remote: false, external: true }],
  ["external", { provider: null, remote: false, external: true }],
  ["remote", { provider: null, remote: true, external: false }],
]);

/** Parses `q`; undefined when it is absent or blank (no filter). */
export function parseTicketSearch(q: string | undefined): TicketSearch | undefined {
  const query = q?.trim() ?? "";
  if (query === "") return undefined;
  const text = foldForSearch(query);

  const local = /^#(\d+)$/.exec(query);
  if (local?.[1]) {
    const id = Number(local[1]);
    return { kind: "id", id: Number.isSafeInteger(id) ? id : null, text };
  }

  const prefixed = /^([a-z]+)#(.+)$/i.exec(query);
  const meaning = prefixed?.[1] ? PREFIXES.get(prefixed[1].toLowerCase()) : undefined;
  if (prefixed?.[2] && meaning) return { kind: "reference", key: prefixed[2], ...meaning, text };

  return { kind: "text", text };
}
