// Normalises a provider instance URL into its credential scope (docs/api.md, "Remote tracking"):
// the origin for github and gitlab, origin plus path without trailing slash for redmine,
// which is often installed under a sub-path such as https://host/redmine.
// Credentials and issue identities both use this form, so they compare as plain strings.

import type { RemoteProviderId } from "./types.js";

/** Thrown with a predicate phrase ("must use https") that the caller prefixes with a field name. */
export class InstanceUrlError extends Error {
  override readonly name = "InstanceUrlError";
}

const LOOPBACK_HOSTS = new Set(["localhost", "[::1]"]);

/**
 * Plain http would send the token in clear text, so it is accepted only for loopback hosts
 * (local fakes, SSH tunnels); every real instance must use https.
 */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

export function normaliseInstanceUrl(provider: RemoteProviderId, raw: string): string {
  const url = parseWebUrl(raw);
  if (url.search !== "" || url.hash !== "") {
    throw new InstanceUrlError("must not have a query or fragment");
  }
  const path = url.pathname.replace(/\/+$/, "");
  if (provider === "redmine") return url.origin + path;
  if (path !== "") {
    throw new InstanceUrlError(`must be an origin without a path for ${provider}`);
  }
  return url.origin;
}

/**
 * Parses an absolute http(s) URL that tack may send a token to. URL already lowercases
 * scheme and host and drops default ports, which is the normalisation the scopes need.
 */
export function parseWebUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new InstanceUrlError("is not a valid url");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname))) {
    throw new InstanceUrlError("must use https");
  }
  // Credentials in a URL would end up in scopes, messages and logs.
  if (url.username !== "" || url.password !== "") {
    throw new InstanceUrlError("must not contain a user name or password");
  }
  return url;
}
