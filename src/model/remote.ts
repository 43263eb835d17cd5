import { type Static, Type } from "@sinclair/typebox";
import { Id, Literals, Nullable } from "./common.js";
import { issueLocationFields } from "./references.js";

// Answers about remote issues before and beside tracking them (docs/api.md, "Remote tracking"):
// an import's preview and a diagnostic of a credential or reference.

export const RemoteIssueImportPreview = Type.Object(
  {
    ...issueLocationFields,
    title: Type.String(),
    state: Nullable(Type.String()),
    remoteUpdatedAt: Nullable(Type.String()),
    duplicate: Type.Boolean(),
    existingTicketId: Nullable(Id),
    existingTicketRef: Nullable(Type.String()),
  },
  { $id: "RemoteIssueImportPreview" },
);
export type RemoteIssueImportPreview = Static<typeof RemoteIssueImportPreview>;

export const RemoteDiagnosticStatus = Literals(
  [
    "missing_credential",
    "reachable",
    "auth_failed",
    "permission_failed",
    "not_found",
    "rate_limited",
    "unsupported_provider",
    "error",
  ],
  { $id: "RemoteDiagnosticStatus" },
);
export type RemoteDiagnosticStatus = Static<typeof RemoteDiagnosticStatus>;

export const RemoteDiagnosticResult = Type.Object(
  {
    provider: Type.String(),
    hasCredential: Type.Boolean({
      description: "Whether a credential for exactly the checked instance is configured.",
    }),
    status: Type.Ref(RemoteDiagnosticStatus),
    displayRef: Type.Optional(Type.String()),
    url: Type.Optional(Type.String()),
    message: Type.Optional(Type.String()),
  },
  { $id: "RemoteDiagnosticResult", description: "Never contains a token." },
);
export type RemoteDiagnosticResult = Static<typeof RemoteDiagnosticResult>;
