// The one place where provider adapters talk HTTP: global fetch with a timeout, JSON in and
// out, and every failure turned into a RemoteError classified by docs/api.md, "Remote tracking".
// Upstream bodies and low-level error messages are never put into messages: they may echo
// request data, and undici's header validation errors quote header values (the token).

import { remoteApiBase } from "./api-base.js";
import { RemoteError, type RemoteProviderId } from "./types.js";

export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * The largest answer read from a provider. tack reads one issue, one user, or the comment it
 * just posted: kilobytes, a few megabytes for an issue with a very long description. Anything
 * far larger is not an answer tack asked for, and reading it whole could exhaust memory within
 * the timeout.
 */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** One call of an adapter: everything but instance, token and transport. */
export interface ProviderCall {
  method: "GET" | "POST" | "PUT";
  /** Appended to the provider's API base (remoteApiBase), e.g. "/user". */
  path: string;
  /** Sent as JSON when present. */
  body?: unknown;
  /** What the call tries to do and to what, for messages: "comment on" + "github issue o/r#1". */
  action: string;
  subject: string;
}

/** Resolves with the parsed JSON body (undefined for an empty one, e.g. 204). */
export type ProviderClient = (
  instanceUrl: string,
  token: string,
  call: ProviderCall,
) => Promise<unknown>;

/**
 * Binds what is fixed per adapter: the provider, how its token travels (one header each,
 * never the URL) and the timeout.
 */
export function createProviderClient(
  provider: RemoteProviderId,
  headersFor: (token: string) => Record<string, string>,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): ProviderClient {
  return (instanceUrl, token, call) =>
    requestJson({
      ...call,
      provider,
      instanceUrl,
      url: remoteApiBase(provider, instanceUrl) + call.path,
      headers: headersFor(token),
      timeoutMs,
    });
}

interface RemoteRequest extends Omit<ProviderCall, "path"> {
  provider: RemoteProviderId;
  url: string;
  /** Auth and provider-specific headers; Accept and User-Agent are added here. */
  headers: Record<string, string>;
  timeoutMs: number;
  /** Normalised instance, named in auth and network failure messages. */
  instanceUrl: string;
}

/** Performs the request; resolves only for 2xx answers with an empty or JSON body. */
async function requestJson(request: RemoteRequest): Promise<unknown> {
  const { provider, timeoutMs } = request;
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await fetchFollowingSameOrigin(request, signal);
    if (!response.ok) {
      await response.body?.cancel();
      throw classifyFailure(request, response.status, response.headers);
    }
    // Read inside the try: the timeout also covers a body that trickles in.
    text = await readCapped(response, provider);
  } catch (error) {
    if (error instanceof RemoteError) throw error;
    if (isTimeout(error)) {
      throw new RemoteError(
        "error",
        `${provider} did not answer within ${formatSeconds(timeoutMs)}`,
      );
    }
    throw new RemoteError("error", `could not reach ${provider} at ${request.instanceUrl}`);
  }

  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw unexpectedResponse(provider, response.status);
  }
}

/** The body as text; a RemoteError once it passes MAX_RESPONSE_BYTES (the rest is not read). */
async function readCapped(response: Response, provider: RemoteProviderId): Promise<string> {
  if (response.body === null) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new RemoteError(
        "error",
        `${provider} sent an answer larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB`,
        response.status,
      );
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const MAX_REDIRECTS = 5;

/**
 * Follows redirects by hand, and only within the instance's origin. fetch would follow them to
 * any host and, while it drops `Authorization` across origins, it keeps custom headers such as
 * GitLab's PRIVATE-TOKEN and Redmine's X-Redmine-API-Key: a token must never reach a host the
 * user did not configure. Same-origin redirects (GitHub's moved or transferred issues) work.
 */
async function fetchFollowingSameOrigin(
  request: RemoteRequest,
  signal: AbortSignal,
): Promise<Response> {
  const origin = new URL(request.url).origin;
  let url = request.url;
  let method: string = request.method;
  let body = request.body === undefined ? undefined : JSON.stringify(request.body);
  for (let hop = 0; ; hop++) {
    const response = await fetchOnceMore(url, {
      method,
      headers: {
        Accept: "application/json",
        // GitHub rejects requests without a User-Agent; the others do not mind one.
        "User-Agent": "tack",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        ...request.headers,
      },
      body,
      redirect: "manual",
      signal,
    });
    const location = response.headers.get("location");
    if (response.status < 300 || response.status > 399 || location === null) return response;
    await response.body?.cancel();
    const next = new URL(location, url);
    if (next.origin !== origin) {
      throw new RemoteError(
        "error",
        `${request.provider} redirected to another host, which tack does not follow`,
        response.status,
      );
    }
    if (hop + 1 >= MAX_REDIRECTS) {
      throw new RemoteError(
        "error",
        `${request.provider} redirected too many times`,
        response.status,
      );
    }
    // As browsers do: 303 always, and 301/302 for a POST, continue as a GET without a body.
    if (
      response.status === 303 ||
      ((response.status === 301 || response.status === 302) && method === "POST")
    ) {
      method = "GET";
      body = undefined;
    }
    url = next.href;
  }
}

/**
 * A GET sent on a kept-alive connection that the server closed at that moment (its idle timeout
 * raced the request) fails with ECONNRESET or "other side closed" before any answer: it is sent
 * once more, on a new connection. A GET changes nothing, so the repeat is safe; a POST or PUT is
 * never repeated, since the server may have acted on it.
 */
async function fetchOnceMore(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (init.method !== "GET" || init.signal?.aborted || !isStaleConnection(error)) throw error;
    return fetch(url, init);
  }
}

function isStaleConnection(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return code === "ECONNRESET" || code === "UND_ERR_SOCKET";
}

/** Maps a non-2xx answer to a RemoteError per docs/api.md, "Remote tracking". */
function classifyFailure(
  request: Pick<RemoteRequest, "provider" | "instanceUrl" | "action" | "subject">,
  status: number,
  headers: Headers,
): RemoteError {
  const { provider, instanceUrl, action, subject } = request;
  if (isRateLimited(status, headers)) {
    return new RemoteError(
      "rate_limited",
      `${provider} rate limit reached; try again later`,
      status,
    );
  }
  switch (status) {
    case 401:
      return new RemoteError(
        "auth_failed",
        `${provider} rejected the credential for ${instanceUrl}`,
        status,
      );
    case 403:
      return new RemoteError(
        "permission_failed",
        `the ${provider} credential is not allowed to ${action} ${subject}`,
        status,
      );
    case 404:
      return new RemoteError(
        "not_found",
        `${subject} was not found or is not visible to the credential`,
        status,
      );
    default:
      return new RemoteError("error", `${provider} answered with http status ${status}`, status);
  }
}

/**
 * 429 always; 403 when the rate-limit headers say the quota is spent (GitHub primary limit:
 * x-ratelimit-remaining 0; GitLab: ratelimit-remaining 0) or ask to retry later (GitHub
 * secondary limits send retry-after).
 */
function isRateLimited(status: number, headers: Headers): boolean {
  if (status === 429) return true;
  if (status !== 403) return false;
  return (
    headers.get("x-ratelimit-remaining") === "0" ||
    headers.get("ratelimit-remaining") === "0" ||
    headers.has("retry-after")
  );
}

export function unexpectedResponse(
  provider: RemoteProviderId,
  status: number | null = null,
): RemoteError {
  return new RemoteError("error", `${provider} returned a response tack could not read`, status);
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === "TimeoutError";
}

function formatSeconds(ms: number): string {
  return `${ms / 1000} s`;
}
