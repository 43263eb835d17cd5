// Provider credentials from the environment (docs/api.md, "Remote tracking").
//
// Sources, highest precedence first (a scope set by a higher source is not overridden):
//   TACK_REMOTE_CREDENTIALS       JSON object {"<provider>:<instanceUrl>" | "<provider>:*": token}
//   TACK_REMOTE_CREDENTIALS_FILE  path of a file holding the same JSON
//   GITHUB_TOKEN                  shorthand for "github:https://github.com"
// A token is a string or {"type":"token","token":"..."}. Empty variables count as unset.
//
// Every problem is reported at start-up with a message that names the source and the key but
// never echoes a value; keys are shown only in a sanitised form because a misplaced token could
// sit in a key too.

import { readFileSync } from "node:fs";
import { inspect } from "node:util";
import { InstanceUrlError, normaliseInstanceUrl } from "./instance-url.js";
import { isRemoteProviderId, REMOTE_PROVIDER_IDS, type RemoteProviderId } from "./types.js";

export class CredentialConfigError extends Error {
  override readonly name = "CredentialConfigError";
}

export type CredentialEnv = Readonly<Record<string, string | undefined>>;

const WILDCARD = "*";
// Printable ASCII without spaces: what every provider's tokens look like, and what an HTTP
// header can carry (fetch would otherwise throw an error whose message contains the value).
const TOKEN_PATTERN = /^[\x21-\x7e]+$/;

/**
 * Holds tokens by scope key `<provider>:<scope>` or `<provider>:*`. The tokens live in a private
 * field, and JSON, inspect and String() show only the configured scopes.
 */
export class CredentialStore {
  readonly #tokens: ReadonlyMap<string, string>;

  constructor(tokens: ReadonlyMap<string, string> = new Map()) {
    this.#tokens = new Map(tokens);
  }

  hasCredential(provider: RemoteProviderId): boolean {
    return this.scopes().some((key) => key.startsWith(`${provider}:`));
  }

  /** Token for import, preview, refresh and push: the exact scope, else the provider wildcard. */
  forOperation(provider: RemoteProviderId, instanceUrl: string): string | null {
    return (
      this.forDiagnostic(provider, instanceUrl) ??
      this.#tokens.get(`${provider}:${WILDCARD}`) ??
      null
    );
  }

  /** Token for diagnostics: exact scope only, so a wildcard never answers for an instance. */
  forDiagnostic(provider: RemoteProviderId, instanceUrl: string): string | null {
    const scope = tryNormalise(provider, instanceUrl);
    return scope === null ? null : (this.#tokens.get(`${provider}:${scope}`) ?? null);
  }

  /** Configured scope keys, without tokens, sorted. */
  scopes(): string[] {
    return [...this.#tokens.keys()].sort();
  }

  toJSON(): { scopes: string[] } {
    return { scopes: this.scopes() };
  }

  toString(): string {
    return `CredentialStore(${this.scopes().join(", ")})`;
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

/** Reads all credential sources; throws CredentialConfigError on the first invalid entry. */
export function loadCredentials(
  env: CredentialEnv = process.env,
  readFile: (path: string) => string = (path) => readFileSync(path, "utf8"),
): CredentialStore {
  const tokens = new Map<string, string>();
  const addAll = (entries: Map<string, string>) => {
    for (const [key, token] of entries) if (!tokens.has(key)) tokens.set(key, token);
  };

  const inline = nonEmpty(env.TACK_REMOTE_CREDENTIALS);
  if (inline !== null) addAll(parseCredentialJson(inline, "TACK_REMOTE_CREDENTIALS"));

  const filePath = nonEmpty(env.TACK_REMOTE_CREDENTIALS_FILE);
  if (filePath !== null) {
    const source = "TACK_REMOTE_CREDENTIALS_FILE";
    let text: string;
    try {
      text = readFile(filePath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException | undefined)?.code ?? "read error";
      throw new CredentialConfigError(`${source}: cannot read ${filePath} (${code})`);
    }
    addAll(parseCredentialJson(text, source));
  }

  const githubToken = nonEmpty(env.GITHUB_TOKEN);
  if (githubToken !== null) {
    if (!TOKEN_PATTERN.test(githubToken)) {
      throw new CredentialConfigError("GITHUB_TOKEN must be a single token without whitespace");
    }
    addAll(new Map([["github:https://github.com", githubToken]]));
  }

  return new CredentialStore(tokens);
}

/** Parses one JSON credential document into scope key → token. `source` names it in errors. */
function parseCredentialJson(text: string, source: string): Map<string, string> {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    // The parser's own message quotes the input, which may contain tokens.
    throw new CredentialConfigError(`${source} is not valid JSON`);
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    throw new CredentialConfigError(`${source} must be a JSON object`);
  }

  const result = new Map<string, string>();
  const origins = new Map<string, string>();
  Object.entries(document).forEach(([rawKey, value], index) => {
    const shownKey = describeKey(rawKey, index);
    const key = parseScopeKey(rawKey, `${source}: key ${shownKey}`);
    const earlier = origins.get(key);
    if (earlier !== undefined) {
      throw new CredentialConfigError(
        `${source}: keys ${earlier} and ${shownKey} name the same scope`,
      );
    }
    origins.set(key, shownKey);
    result.set(key, parseTokenValue(value, `${source}: value of key ${shownKey}`));
  });
  return result;
}

function parseScopeKey(rawKey: string, where: string): string {
  const colon = rawKey.indexOf(":");
  if (colon < 0) {
    throw new CredentialConfigError(
      `${where} must look like "<provider>:<instanceUrl>" or "<provider>:*"`,
    );
  }
  const provider = rawKey.slice(0, colon);
  if (!isRemoteProviderId(provider)) {
    throw new CredentialConfigError(
      `${where} names an unknown provider (expected one of ${REMOTE_PROVIDER_IDS.join(", ")})`,
    );
  }
  const instance = rawKey.slice(colon + 1);
  if (instance === WILDCARD) return `${provider}:${WILDCARD}`;
  try {
    return `${provider}:${normaliseInstanceUrl(provider, instance)}`;
  } catch (error) {
    if (error instanceof InstanceUrlError) {
      throw new CredentialConfigError(`${where}: instance url ${error.message}`);
    }
    throw error;
  }
}

function parseTokenValue(value: unknown, where: string): string {
  const token = typeof value === "string" ? value : isTokenObject(value) ? value.token : null;
  if (token === null) {
    throw new CredentialConfigError(
      `${where} must be a token string or {"type":"token","token":"..."}`,
    );
  }
  if (!TOKEN_PATTERN.test(token.trim())) {
    throw new CredentialConfigError(`${where} must be a non-empty token without whitespace`);
  }
  return token.trim();
}

function isTokenObject(value: unknown): value is { type: "token"; token: string } {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return record.type === "token" && typeof record.token === "string";
}

/**
 * A key as it may appear in an error message: verbatim when it is "<word>:*" or
 * "<word>:<http(s) url>" (the URL without user info, query or fragment), otherwise only by its
 * position in the object, since anything else could be a misplaced token.
 */
function describeKey(rawKey: string, index: number): string {
  const byPosition = `number ${index + 1}`;
  const match = /^([A-Za-z][A-Za-z0-9_-]{0,31}):(.*)$/s.exec(rawKey);
  if (match === null) return byPosition;
  const [, provider, rest = ""] = match;
  if (rest === WILDCARD) return JSON.stringify(rawKey);
  let url: URL;
  try {
    url = new URL(rest);
  } catch {
    return byPosition;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return byPosition;
  return JSON.stringify(`${provider}:${url.protocol}//${url.host}${url.pathname}`);
}

function tryNormalise(provider: RemoteProviderId, instanceUrl: string): string | null {
  try {
    return normaliseInstanceUrl(provider, instanceUrl);
  } catch {
    return null;
  }
}

function nonEmpty(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}
