// Reading fields out of provider JSON without trusting its shape. A missing required field
// means the answer is not what the adapter understands: a classified "error", never a crash.

import { unexpectedResponse } from "./http.js";
import type { RemoteComment, RemoteProviderId } from "./types.js";

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value as an object, or a RemoteError("error") naming the provider. */
export function requireObject(provider: RemoteProviderId, value: unknown): JsonObject {
  if (!isJsonObject(value)) throw unexpectedResponse(provider);
  return value;
}

export function requireString(provider: RemoteProviderId, object: JsonObject, key: string): string {
  const value = object[key];
  if (typeof value !== "string") throw unexpectedResponse(provider);
  return value;
}

/** Integer ids come as JSON numbers from all three providers; returned in decimal form. */
export function requireId(provider: RemoteProviderId, object: JsonObject, key: string): string {
  const value = object[key];
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw unexpectedResponse(provider);
  }
  return String(value);
}

export function optionalString(object: JsonObject, key: string): string | null {
  const value = object[key];
  return typeof value === "string" ? value : null;
}

export function optionalObject(object: JsonObject, key: string): JsonObject | null {
  const value = object[key];
  return isJsonObject(value) ? value : null;
}

/** A provider timestamp as ISO 8601 (UTC, milliseconds), or null when absent or unparsable. */
export function isoTimestamp(value: string | null): string | null {
  if (value === null) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** A created comment as GitHub and GitLab both answer it: {"id": 1, "created_at": "…", …}. */
export function commentFromJson(provider: RemoteProviderId, json: unknown): RemoteComment {
  const comment = requireObject(provider, json);
  return {
    remoteCommentId: requireId(provider, comment, "id"),
    postedAt: isoTimestamp(optionalString(comment, "created_at")) ?? new Date().toISOString(),
  };
}
