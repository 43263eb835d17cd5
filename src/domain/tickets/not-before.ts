import { InvalidInput } from "../errors.js";
import { parseDateTime } from "../insights/insights-window.js";

/**
 * A ticket's `notBefore` (docs/api.md, "Not before") as stored and shown: the moment in UTC with
 * milliseconds, like every other time tack writes (so text order is time order, which the ready
 * rule's SQL and the kept lists compare), or null. `field` names it in the error.
 */
export function cleanNotBefore(value: string | null, field = "notBefore"): string | null {
  if (value === null) return null;
  const shown = new Date(parseDateTime(value, field)).toISOString();
  // A year outside 0000-9999 once in UTC would be written with a sign and not sort as text.
  if (!/^\d{4}-/.test(shown)) throw new InvalidInput(`${field} is out of range`);
  return shown;
}
