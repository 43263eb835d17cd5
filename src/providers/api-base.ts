// Where each provider's REST API lives, given a normalised instance URL (the credential scope).

import type { RemoteProviderId } from "./types.js";

const GITHUB_COM = "https://github.com";

export function remoteApiBase(provider: RemoteProviderId, instanceUrl: string): string {
  switch (provider) {
    case "github":
      // github.com serves its API from a separate host; GitHub Enterprise Server under /api/v3.
      return instanceUrl === GITHUB_COM ? "https://api.github.com" : `${instanceUrl}/api/v3`;
    case "gitlab":
      return `${instanceUrl}/api/v4`;
    case "redmine":
      // Redmine's REST API is its web URL with a .json suffix, sub-path included.
      return instanceUrl;
  }
}
