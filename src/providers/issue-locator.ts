// Turns a RemoteIssueImport / RemoteDiagnosticRequest style reference into a RemoteIssueTarget
// (docs/api.md, "Remote tracking", "url parsing"). Pure: no network, no credentials.

import { InstanceUrlError, normaliseInstanceUrl, parseWebUrl } from "./instance-url.js";
import {
  isRemoteProviderId,
  REMOTE_PROVIDER_IDS,
  type RemoteIssueTarget,
  type RemoteProviderId,
} from "./types.js";

/** Invalid reference input; the message is a lowercase sentence naming the field (a 400). */
export class RemoteIssueInputError extends Error {
  override readonly name = "RemoteIssueInputError";
}

export interface RemoteIssueReference {
  provider: string;
  instanceUrl?: string | undefined;
  projectKey?: string | undefined;
  issueKey?: string | undefined;
  url?: string | undefined;
}

export const DEFAULT_INSTANCE_URLS: Readonly<Partial<Record<RemoteProviderId, string>>> = {
  github: "https://github.com",
  gitlab: "https://gitlab.com",
};

// GitHub owners are letters, digits and hyphens; repository names add dot and underscore.
const GITHUB_OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const GITHUB_REPO = /^(?!\.\.?$)[A-Za-z0-9._-]{1,100}$/;
// One GitLab namespace or project path segment.
const GITLAB_SEGMENT = /^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/;

/**
 * Resolves the reference. With `url`, the URL decides; any instanceUrl, projectKey or issueKey
 * given beside it must agree with it. Without `url`, projectKey (not for redmine) and issueKey
 * are required, and instanceUrl defaults to the provider's public instance.
 * Empty or blank optional fields count as absent.
 */
export function locateRemoteIssue(input: RemoteIssueReference): RemoteIssueTarget {
  const provider = input.provider;
  if (!isRemoteProviderId(provider)) {
    throw new RemoteIssueInputError(`provider must be one of ${REMOTE_PROVIDER_IDS.join(", ")}`);
  }
  const instanceUrl = optional(input.instanceUrl);
  const projectKey = optional(input.projectKey);
  const issueKey = optional(input.issueKey);
  const url = optional(input.url);
  const instance = instanceUrl === null ? null : normaliseField(provider, instanceUrl);

  if (url !== null) {
    const target = parseRemoteIssueUrl(provider, url);
    if (instance !== null && instance !== target.instanceUrl) {
      throw new RemoteIssueInputError("url does not belong to instanceUrl");
    }
    // GitHub and GitLab paths are case-insensitive.
    const sameProject = projectKey?.toLowerCase() === target.projectKey.toLowerCase();
    if (provider !== "redmine" && projectKey !== null && !sameProject) {
      throw new RemoteIssueInputError("projectKey does not match url");
    }
    if (issueKey !== null && normaliseIssueKey(issueKey) !== target.issueKey) {
      throw new RemoteIssueInputError("issueKey does not match url");
    }
    return provider === "redmine" && projectKey !== null ? { ...target, projectKey } : target;
  }

  const resolvedInstance = instance ?? DEFAULT_INSTANCE_URLS[provider] ?? null;
  if (resolvedInstance === null) {
    throw new RemoteIssueInputError(`instanceUrl or url is required for ${provider}`);
  }
  if (issueKey === null) throw new RemoteIssueInputError("issueKey is required");
  return {
    provider,
    instanceUrl: resolvedInstance,
    resourceType: "issue",
    projectKey: validateProjectKey(provider, projectKey),
    issueKey: normaliseIssueKey(issueKey),
  };
}

/** Parses a web URL of an issue of the given provider. */
export function parseRemoteIssueUrl(provider: RemoteProviderId, rawUrl: string): RemoteIssueTarget {
  let url: URL;
  try {
    url = parseWebUrl(rawUrl);
  } catch (error) {
    throw asInputError("url", error);
  }
  // Query and fragment (#issuecomment-1, #note-3) do not change which issue is meant.
  const segments = url.pathname.split("/").filter((segment) => segment !== "");
  const parsed = splitIssuePath(provider, segments);
  if (parsed === null) throw new RemoteIssueInputError(`url is not a ${provider} issue url`);

  const instancePath = provider === "redmine" ? parsed.instancePath : "";
  return {
    provider,
    instanceUrl: normaliseField(provider, url.origin + instancePath, "url"),
    resourceType: "issue",
    projectKey: parsed.projectKey,
    issueKey: parsed.issueKey,
  };
}

interface IssuePath {
  instancePath: string;
  projectKey: string;
  issueKey: string;
}

function splitIssuePath(provider: RemoteProviderId, segments: string[]): IssuePath | null {
  const issueKey = tryIssueKey(segments.at(-1));
  if (issueKey === null) return null;
  const kind = segments.at(-2);

  if (provider === "github") {
    const [owner = "", repo = "", issues] = segments;
    const ok = segments.length === 4 && issues === "issues";
    return ok && GITHUB_OWNER.test(owner) && GITHUB_REPO.test(repo)
      ? { instancePath: "", projectKey: `${owner}/${repo}`, issueKey }
      : null;
  }

  if (provider === "gitlab") {
    // <namespace…>/<project>/-/issues/<n>; work items of a project share the issues' iids.
    const projectSegments = segments.slice(0, -3);
    const ok = segments.at(-3) === "-" && (kind === "issues" || kind === "work_items");
    return ok && isGitLabProjectPath(projectSegments)
      ? { instancePath: "", projectKey: projectSegments.join("/"), issueKey }
      : null;
  }

  // redmine: [<sub-path…>]/issues/<n>; the project is not part of the URL.
  return kind === "issues"
    ? {
        instancePath: segments
          .slice(0, -2)
          .map((s) => `/${s}`)
          .join(""),
        projectKey: "",
        issueKey,
      }
    : null;
}

function isGitLabProjectPath(segments: string[]): boolean {
  // Group-level pages (/groups/<group>/-/work_items/<n>, epics) are not project issues.
  return (
    segments.length >= 2 &&
    segments[0] !== "groups" &&
    segments.every((segment) => GITLAB_SEGMENT.test(segment))
  );
}

function validateProjectKey(provider: RemoteProviderId, projectKey: string | null): string {
  if (provider === "redmine") {
    // Redmine addresses issues by id alone; the fetched issue supplies its project id.
    return projectKey ?? "";
  }
  if (projectKey === null) throw new RemoteIssueInputError("projectKey is required");
  const segments = projectKey.split("/");
  if (provider === "github") {
    const [owner = "", repo = ""] = segments;
    if (segments.length !== 2 || !GITHUB_OWNER.test(owner) || !GITHUB_REPO.test(repo)) {
      throw new RemoteIssueInputError("projectKey must be owner/repo for github");
    }
  } else if (!isGitLabProjectPath(segments)) {
    throw new RemoteIssueInputError(
      "projectKey must be a project path like group/project for gitlab",
    );
  }
  return projectKey;
}

function normaliseIssueKey(issueKey: string): string {
  const key = tryIssueKey(issueKey);
  if (key === null) throw new RemoteIssueInputError("issueKey must be a positive number");
  return key;
}

/** Decimal digits, leading zeros dropped, not zero. */
function tryIssueKey(value: string | undefined): string | null {
  if (value === undefined || !/^\d{1,15}$/.test(value)) return null;
  const key = value.replace(/^0+/, "");
  return key === "" ? null : key;
}

function normaliseField(provider: RemoteProviderId, value: string, field = "instanceUrl"): string {
  try {
    return normaliseInstanceUrl(provider, value);
  } catch (error) {
    throw asInputError(field, error);
  }
}

function asInputError(field: string, error: unknown): Error {
  return error instanceof InstanceUrlError
    ? new RemoteIssueInputError(`${field} ${error.message}`)
    : (error as Error);
}

function optional(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}
