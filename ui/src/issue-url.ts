// Reads the fields of an external reference from an issue URL the user pastes, so the add form
// needs only a URL and a kind. The shapes follow docs/remote-tracking.md; the server does not
// parse external references (they are plain links), so whatever this derives stays editable.

export type ReferenceProvider = "github" | "gitlab" | "redmine";
export const REFERENCE_PROVIDERS: readonly ReferenceProvider[] = ["github", "gitlab", "redmine"];

/** The body of `PUT /api/tickets/{id}/external-references/{kind}` without `title`. */
export interface ReferenceFields {
  provider: string;
  instanceUrl: string;
  projectKey: string;
  issueKey: string;
  displayRef: string;
  url: string;
}

/** The kind pattern of docs/api.md (Limits). */
export const REFERENCE_KIND = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/**
 * A provider for a URL when the URL says so: a GitLab `/-/issues/` path, or a host named
 * github/gitlab. A bare `/issues/N` fits both Redmine and GitHub Enterprise, so it gives null
 * and the user's provider choice decides.
 */
export function guessProvider(url: string): ReferenceProvider | null {
  const parsed = parseUrl(url);
  if (!parsed) return null;
  if (parsed.pathname.includes("/-/issues/")) return "gitlab";
  if (/(^|\.)github\./i.test(parsed.hostname)) return "github";
  if (/(^|\.)gitlab\./i.test(parsed.hostname)) return "gitlab";
  return null;
}

/** The fields of an issue URL read as `provider`'s, or null when it does not have that shape. */
export function parseIssueUrl(url: string, provider: ReferenceProvider): ReferenceFields | null {
  const parsed = parseUrl(url);
  if (!parsed) return null;
  const segments = parsed.pathname.split("/").filter((segment) => segment !== "");
  const last = segments.length - 1;
  const issueKey = segments[last];
  if (!issueKey || !/^[1-9][0-9]*$/.test(issueKey)) return null;
  const clean = `${parsed.origin}${parsed.pathname.replace(/\/+$/, "")}`;
  if (provider === "github") {
    // https://host/owner/repo/issues/N
    if (segments.length !== 4 || segments[2] !== "issues") return null;
    const projectKey = `${segments[0]}/${segments[1]}`;
    return fields(
      provider,
      parsed.origin,
      projectKey,
      issueKey,
      `${projectKey}#${issueKey}`,
      clean,
    );
  }
  if (provider === "gitlab") {
    // https://host/group/[subgroup/...]project/-/issues/N
    if (segments.length < 5 || segments[last - 1] !== "issues" || segments[last - 2] !== "-") {
      return null;
    }
    const projectKey = segments.slice(0, last - 2).join("/");
    return fields(
      provider,
      parsed.origin,
      projectKey,
      issueKey,
      `${projectKey}#${issueKey}`,
      clean,
    );
  }
  // Redmine: https://host[/path]/issues/N; the URL names no project.
  if (segments[last - 1] !== "issues") return null;
  const instanceUrl = `${parsed.origin}${segments.length > 2 ? `/${segments.slice(0, last - 1).join("/")}` : ""}`;
  // "Redmine #N", not "#N", which would read as a tack ticket.
  return fields(provider, instanceUrl, "", issueKey, `Redmine #${issueKey}`, clean);
}

function fields(
  provider: string,
  instanceUrl: string,
  projectKey: string,
  issueKey: string,
  displayRef: string,
  url: string,
): ReferenceFields {
  return { provider, instanceUrl, projectKey, issueKey, displayRef, url };
}

function parseUrl(text: string): URL | null {
  try {
    const parsed = new URL(text.trim());
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed : null;
  } catch {
    return null;
  }
}
