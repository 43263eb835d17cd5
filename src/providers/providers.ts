// Provider registry: the domain asks for an adapter by id and never imports one directly.

import { createGitHubProvider } from "./github.js";
import { createGitLabProvider } from "./gitlab.js";
import { createRedmineProvider } from "./redmine.js";
import type { RemoteProvider, RemoteProviderId, RemoteProviderOptions } from "./types.js";

const FACTORIES: Record<RemoteProviderId, (options: RemoteProviderOptions) => RemoteProvider> = {
  github: createGitHubProvider,
  gitlab: createGitLabProvider,
  redmine: createRedmineProvider,
};

/** Adapters are stateless and cheap, so each call builds one with the given options. */
export function getProvider(
  id: RemoteProviderId,
  options: RemoteProviderOptions = {},
): RemoteProvider {
  return FACTORIES[id](options);
}
