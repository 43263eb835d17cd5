import { NAME_MAX } from "../model/limits.js";
import { InvalidInput } from "./errors.js";

// The length limits of docs/api.md, "Limits" (model/limits.ts), for the checks that import them
// from here.
export { BODY_MAX, NAME_MAX, TITLE_MAX } from "../model/limits.js";

/** Trims a naming string and enforces "non-empty after trimming" and its maximum length. */
export function cleanName(value: string, field: string, max = NAME_MAX): string {
  const trimmed = value.trim();
  if (trimmed.length === 0) throw new InvalidInput(`${field} must not be empty`);
  // Characters are code points (an emoji is one), as in JSON Schema's maxLength; `.length`
  // counts UTF-16 units, so only a string longer than `max` units can be too long.
  if (trimmed.length > max && [...trimmed].length > max) {
    throw new InvalidInput(`${field} must be at most ${max} characters`);
  }
  return trimmed;
}

/** An optional text field: trimmed; null when absent, null or blank; at most `max` characters. */
export function optionalText(
  value: string | null | undefined,
  field: string,
  max: number,
): string | null {
  const trimmed = value?.trim() ?? "";
  if (trimmed === "") return null;
  if (trimmed.length > max) throw new InvalidInput(`${field} must be at most ${max} characters`);
  return trimmed;
}

/** Case-insensitive (Unicode) comparison key for names that must be unique, such as tags. */
export function nameKey(name: string): string {
  return name.trim().normalize("NFC").toLowerCase();
}
