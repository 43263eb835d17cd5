import { InvalidInput } from "./errors.js";

/** Length limits of CONTRACT.md §2, counted after trimming. */
export const NAME_MAX = 200;
export const TITLE_MAX = 500;
export const BODY_MAX = 200_000;

/** Trims a naming string and enforces "non-empty after trimming" and its maximum length. */
export function cleanName(value: string, field: string, max = NAME_MAX): string {
  const trimmed = value.trim();
  if (trimmed.length === 0) throw new InvalidInput(`${field} must not be empty`);
  if (trimmed.length > max) throw new InvalidInput(`${field} must be at most ${max} characters`);
  return trimmed;
}

/** Case-insensitive (Unicode) comparison key for names that must be unique, such as tags. */
export function nameKey(name: string): string {
  return name.trim().toLowerCase();
}
