/** The remote providers tack knows, in the order GET /api/meta lists them (CONTRACT.md §11). */
export const REMOTE_PROVIDER_IDS = ["github", "gitlab", "redmine"] as const;
export type RemoteProviderId = (typeof REMOTE_PROVIDER_IDS)[number];

export interface RemoteProviderStatus {
  id: RemoteProviderId;
  hasCredential: boolean;
}

export function providerStatuses(
  hasCredential: (provider: RemoteProviderId) => boolean,
): RemoteProviderStatus[] {
  return REMOTE_PROVIDER_IDS.map((id) => ({ id, hasCredential: hasCredential(id) }));
}
