/**
 * Typed domain errors. Any module may throw them; the HTTP layer maps each class to its status
 * code in one place (http/errors.ts), so no route ever inspects a message to pick a status.
 * Messages are short lowercase sentences naming the field or rule, shown to clients as is.
 */
export abstract class DomainError extends Error {
  abstract readonly status: 400 | 404 | 409 | 412 | 422;
}

/** The request is invalid (400). */
export class InvalidInput extends DomainError {
  readonly status = 400;
}

/** The addressed thing does not exist (404). */
export class NotFound extends DomainError {
  readonly status = 404;
}

/** `value`, or NotFound ("board not found") when the store had no `what` by that id. */
export function found<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new NotFound(`${what} not found`);
  return value;
}

/** The request conflicts with the current state (409). */
export class Conflict extends DomainError {
  readonly status = 409;
}

/** A conditional write whose `If-Match` no longer names the current state (412). */
export class PreconditionFailed extends DomainError {
  readonly status = 412;
}

/** The request contradicts an earlier one it claims to repeat (422). */
export class Unprocessable extends DomainError {
  readonly status = 422;
}
