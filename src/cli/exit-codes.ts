import type { ApiError } from "../client/errors.js";

/** Exit codes scripts can rely on (docs/agents.md, "Exit codes"). */
export const EXIT = {
  ok: 0,
  refused: 1,
  usage: 2,
  notFound: 3,
  conflict: 4,
  unreachable: 5,
  /** `tack ask --wait` and `tack ask show --wait`: the wait ended with no answer. */
  noAnswer: 6,
} as const;

export function exitCodeFor(error: ApiError): number {
  switch (error.code) {
    case "not_found":
      return EXIT.notFound;
    case "conflict":
    case "claimed":
    case "version_conflict":
      return EXIT.conflict;
    case "unreachable":
      return EXIT.unreachable;
    default:
      return EXIT.refused;
  }
}

/** A mistake in how the command was called (exit 2), found after commander's own parsing. */
export class UsageError extends Error {}
