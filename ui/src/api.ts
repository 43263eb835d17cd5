// Every request the UI makes goes through here: JSON in and out, `{error}` bodies become ApiError
// with the server's sentence, and ticket writes can carry If-Match (docs/api.md, "Coordination for
// agents").

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface RequestOptions {
  ifMatch?: string | undefined;
  /** A GET's earlier ETag: a 304 then answers `{data: undefined, notModified: true}`. */
  ifNoneMatch?: string | undefined;
}

export async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const { data } = await requestWithHeaders<T>(method, path, body, options);
  return data;
}

export async function requestWithHeaders<T>(
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<{ data: T; etag: string | null; notModified?: boolean }> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (options.ifMatch) headers["if-match"] = options.ifMatch;
  if (options.ifNoneMatch) headers["if-none-match"] = options.ifNoneMatch;
  const response = await send(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    // With our own If-None-Match the 304 must reach this code, not the browser's cache.
    cache: options.ifNoneMatch ? "no-store" : "no-cache",
  });
  if (response.status === 304) {
    return { data: undefined as T, etag: response.headers.get("etag"), notModified: true };
  }
  const parsed = parseOrUndefined(await response.text());
  if (!response.ok) throw failure(response, parsed);
  return { data: parsed as T, etag: response.headers.get("etag") };
}

/**
 * A GET whose successful answer the caller reads itself, as it arrives (`response.body`); a
 * failure is thrown as ApiError like any other request's.
 */
export async function openGet(path: string, signal?: AbortSignal): Promise<Response> {
  const response = await send(path, {
    headers: { accept: "application/json" },
    cache: "no-cache",
    ...(signal ? { signal } : {}),
  });
  if (!response.ok) throw failure(response, parseOrUndefined(await response.text()));
  return response;
}

async function send(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, init);
  } catch (error) {
    // A request the page called off (another board opened meanwhile) is not an outage.
    if (init.signal?.aborted) throw error;
    throw new ApiError(0, "tack is not reachable");
  }
}

function parseOrUndefined(text: string): unknown {
  try {
    return text === "" ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The ApiError of a failed answer, with the server's sentence when its body has one. */
function failure(response: Response, parsed: unknown): ApiError {
  // The session ended (signed out elsewhere, token revoked or expired): reloading gets the
  // server's sign-in page (docs/api.md, "Access tokens").
  if (response.status === 401) location.reload();
  const message =
    parsed && typeof (parsed as { error?: unknown }).error === "string"
      ? (parsed as { error: string }).error
      : `request failed (${response.status})`;
  return new ApiError(response.status, message);
}

export const api = {
  get: <T>(path: string) => request<T>("GET", path),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>("POST", path, body, options),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>("PATCH", path, body, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>("PUT", path, body, options),
  delete: (path: string, options?: RequestOptions) =>
    request<void>("DELETE", path, undefined, options),
};

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
