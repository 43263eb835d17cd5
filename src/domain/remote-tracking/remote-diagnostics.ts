// GET and POST /api/remote-diagnostics (docs/api.md, "Service" and "Remote tracking"). A diagnostic
// uses only a credential configured for exactly the target instance: a wildcard would hand its
// token to whatever URL a client types, so it never answers here. Results never carry a token.

import type { RemoteDiagnosticResult } from "../../model/remote.js";
import { InstanceUrlError, normaliseInstanceUrl } from "../../providers/instance-url.js";
import {
  DEFAULT_INSTANCE_URLS,
  locateRemoteIssue,
  RemoteIssueInputError,
  type RemoteIssueReference,
} from "../../providers/issue-locator.js";
import {
  isRemoteProviderId,
  REMOTE_PROVIDER_IDS,
  RemoteError,
  type RemoteIssueTarget,
  type RemoteProviderId,
} from "../../providers/types.js";
import type { RemoteAccess } from "./remote-tracking.js";

export interface RemoteProviderStatus {
  id: RemoteProviderId;
  hasCredential: boolean;
  status: "configured" | "missing_credential";
}

/** What the instance check or issue lookup needs, or the result that ends the diagnostic early. */
type Plan =
  | { kind: "issue"; target: RemoteIssueTarget }
  | { kind: "instance"; provider: RemoteProviderId; instanceUrl: string };

export function remoteDiagnosticsService(remote: RemoteAccess) {
  const { credentials } = remote;

  async function run(plan: Plan, token: string): Promise<RemoteDiagnosticResult> {
    const provider = remote.provider(providerOf(plan));
    if (plan.kind === "issue") {
      const issue = await provider.fetchIssue(plan.target, token);
      return {
        provider: issue.provider,
        hasCredential: true,
        status: "reachable",
        displayRef: issue.displayRef,
        url: issue.url,
        message: `${issue.displayRef} is reachable with the configured credential`,
      };
    }
    await provider.checkCredential(plan.instanceUrl, token);
    return {
      provider: plan.provider,
      hasCredential: true,
      status: "reachable",
      message: `${plan.provider} at ${plan.instanceUrl} accepted the configured credential`,
    };
  }

  return {
    /** Per provider: is any credential configured (exact or wildcard)? */
    providers(): RemoteProviderStatus[] {
      return REMOTE_PROVIDER_IDS.map((id) => {
        const hasCredential = credentials.hasCredential(id);
        return { id, hasCredential, status: hasCredential ? "configured" : "missing_credential" };
      });
    },

    /**
     * With an issue reference (url, issueKey or projectKey) resolves that issue; without one
     * checks the credential against the instance (instanceUrl, or the provider's public one).
     * `ok` false means the answer is a 400 carrying the result.
     */
    async check(
      input: RemoteIssueReference,
    ): Promise<{ ok: boolean; result: RemoteDiagnosticResult }> {
      const failed = (result: RemoteDiagnosticResult) => ({ ok: false, result });
      if (!isRemoteProviderId(input.provider)) {
        return failed({
          provider: input.provider,
          hasCredential: false,
          status: "unsupported_provider",
          message: `provider must be one of ${REMOTE_PROVIDER_IDS.join(", ")}`,
        });
      }
      const provider = input.provider;

      let plan: Plan;
      try {
        plan = planOf(provider, input);
      } catch (error) {
        if (!(error instanceof RemoteIssueInputError)) throw error;
        // With no credential for the provider at all there is nothing a better request could
        // check: that, not the missing instance, is the honest answer (a Redmine diagnostic
        // has no default instance to fall back to).
        if (!credentials.hasCredential(provider)) {
          return failed({
            provider,
            hasCredential: false,
            status: "missing_credential",
            message: `no credential configured for ${provider}`,
          });
        }
        return failed({ provider, hasCredential: false, status: "error", message: error.message });
      }

      const instanceUrl = plan.kind === "issue" ? plan.target.instanceUrl : plan.instanceUrl;
      const token = credentials.forDiagnostic(provider, instanceUrl);
      if (token === null) {
        const wildcardOnly = credentials.forOperation(provider, instanceUrl) !== null;
        return failed({
          provider,
          hasCredential: false,
          status: "missing_credential",
          message:
            `no credential configured for ${provider} at ${instanceUrl}` +
            (wildcardOnly ? " (a wildcard credential is never used for diagnostics)" : ""),
        });
      }

      try {
        return { ok: true, result: await run(plan, token) };
      } catch (error) {
        if (!(error instanceof RemoteError)) throw error;
        return failed({
          provider,
          hasCredential: true,
          status: error.status,
          message: error.message,
        });
      }
    },
  };
}

export type RemoteDiagnosticsService = ReturnType<typeof remoteDiagnosticsService>;

/**
 * The result a request that could not even be read answers with (docs/api.md, "Errors": every 400
 * of this endpoint is a RemoteDiagnosticResult, docs/decisions.md). Without a string `provider`
 * there is no provider to check: `unsupported_provider` with an empty `provider`. Any other
 * malformed field (or a body that is not a JSON object) is `error`, naming the field.
 */
export function unreadableDiagnosticRequest(
  body: unknown,
  message: string,
): RemoteDiagnosticResult {
  const given = (body as { provider?: unknown } | null | undefined)?.provider;
  const provider = typeof body === "object" && typeof given === "string" ? given : "";
  return {
    provider,
    hasCredential: false,
    status: provider === "" ? "unsupported_provider" : "error",
    message,
  };
}

function providerOf(plan: Plan): RemoteProviderId {
  return plan.kind === "issue" ? plan.target.provider : plan.provider;
}

function planOf(provider: RemoteProviderId, input: RemoteIssueReference): Plan {
  const namesIssue = [input.url, input.issueKey, input.projectKey].some(
    (value) => value !== undefined && value.trim() !== "",
  );
  if (namesIssue) return { kind: "issue", target: locateRemoteIssue({ ...input, provider }) };

  const given = input.instanceUrl?.trim() ? input.instanceUrl : undefined;
  const instanceUrl = given ?? DEFAULT_INSTANCE_URLS[provider];
  if (instanceUrl === undefined) {
    throw new RemoteIssueInputError(`instanceUrl or url is required for ${provider}`);
  }
  try {
    return { kind: "instance", provider, instanceUrl: normaliseInstanceUrl(provider, instanceUrl) };
  } catch (error) {
    if (error instanceof InstanceUrlError) {
      throw new RemoteIssueInputError(`instanceUrl ${error.message}`);
    }
    throw error;
  }
}
