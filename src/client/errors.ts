// One error shape for every client of the API (the command line and the MCP server): what went
// wrong in the server's own words, what to do about it, and whether trying again can help.

export type ApiErrorCode =
  | "invalid_request"
  | "not_found"
  | "conflict"
  | "claimed"
  | "version_conflict"
  | "idempotency_mismatch"
  | "too_large"
  | "unauthorized"
  | "forbidden"
  | "rate_limited"
  | "server_error"
  | "unreachable";

export interface ApiErrorShape {
  code: ApiErrorCode;
  message: string;
  hint: string;
  retryable: boolean;
}

export class ApiError extends Error implements ApiErrorShape {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly hint: string,
    readonly retryable: boolean,
    /** The HTTP status, or 0 when the server could not be reached. */
    readonly status: number,
  ) {
    super(message);
    this.name = "ApiError";
  }

  toJSON(): ApiErrorShape {
    return { code: this.code, message: this.message, hint: this.hint, retryable: this.retryable };
  }
}

/** Maps an HTTP refusal to the shared shape; `message` is the server's `{error}` sentence. */
export function errorFromResponse(status: number, message: string): ApiError {
  if (status === 404) {
    return new ApiError("not_found", message, "check the id: list what exists first", false, 404);
  }
  if (status === 409 && message.includes("claimed by")) {
    return new ApiError(
      "claimed",
      message,
      "another actor holds this ticket: take the next ready ticket instead, or wait for the lease to expire",
      false,
      409,
    );
  }
  if (status === 409) {
    return new ApiError(
      "conflict",
      message,
      "the current state does not allow this: read it again and adjust",
      false,
      409,
    );
  }
  if (status === 412) {
    return new ApiError(
      "version_conflict",
      message,
      "the ticket changed since you read it: read it again and apply your change to the current version",
      false,
      412,
    );
  }
  if (status === 422) {
    return new ApiError(
      "idempotency_mismatch",
      message,
      "use a new idempotency key for a different request",
      false,
      422,
    );
  }
  if (status === 401) {
    return new ApiError(
      "unauthorized",
      message,
      "send a usable access token with --token or TACK_TOKEN (its owner makes one with `tack token create`)",
      false,
      401,
    );
  }
  if (status === 403) {
    const hint = message.includes("read-only")
      ? "this token may only read: use a read-write token for changes"
      : "the server refused this request as a whole: check --url and its host name";
    return new ApiError("forbidden", message, hint, false, 403);
  }
  if (status === 429) {
    return new ApiError("rate_limited", message, "wait a minute, then try again", true, 429);
  }
  if (status === 413) {
    return new ApiError("too_large", message, "send less at once", false, 413);
  }
  if (status >= 500) {
    return new ApiError(
      "server_error",
      message,
      "the server failed; its log has the details. Retrying may help",
      true,
      status,
    );
  }
  return new ApiError(
    "invalid_request",
    message,
    "fix the field or value the message names and send it again",
    false,
    status,
  );
}

export function unreachable(url: string, cause: unknown): ApiError {
  const reason =
    cause instanceof Error
      ? ((cause.cause as Error | undefined)?.message ?? cause.message)
      : String(cause);
  return new ApiError(
    "unreachable",
    `cannot reach tack at ${url} (${reason})`,
    "start it with `tack serve`, or point --url / TACK_URL at the running server",
    true,
    0,
  );
}
