import { Type } from "@sinclair/typebox";
import { Id } from "./common.js";

export {
  RemoteDiagnosticResult,
  RemoteDiagnosticStatus,
  RemoteIssueImportPreview,
} from "../../model/remote.js";

// Remote tracking and diagnostics (docs/api.md, "Remote tracking"). Provider ids and
// reference fields are plain strings here: domain/remote-tracking/*.ts and
// src/providers/issue-locator.ts give one message per rule (e.g. `provider must be one of github,
// gitlab, redmine`).

/** URLs and keys are short in practice; the bound only keeps absurd input out. */
const ReferenceText = (description: string) => Type.String({ maxLength: 2048, description });

const referenceFields = {
  provider: Type.String({ description: "github, gitlab or redmine." }),
  instanceUrl: Type.Optional(
    ReferenceText(
      "Instance URL; defaults to https://github.com or https://gitlab.com; required for redmine unless url is given.",
    ),
  ),
  projectKey: Type.Optional(
    ReferenceText("github owner/repo, gitlab group/project path; optional for redmine."),
  ),
  issueKey: Type.Optional(ReferenceText("Issue number (gitlab iid, redmine issue id).")),
  url: Type.Optional(
    ReferenceText("Web URL of the issue; replaces instanceUrl, projectKey and issueKey."),
  ),
};

export const RemoteIssueImport = Type.Object(
  {
    ...referenceFields,
    laneId: Id,
    postBacklinkComment: Type.Optional(
      Type.Boolean({
        description:
          "After import, post one comment on the remote issue naming the ticket (needs write permission). A failure is recorded as activity and never fails the import.",
      }),
    ),
    backlinkUrl: Type.Optional(
      ReferenceText("Absolute http(s) URL appended to the backlink comment."),
    ),
  },
  { $id: "RemoteIssueImport" },
);

export const RemoteDiagnosticRequest = Type.Object(referenceFields, {
  $id: "RemoteDiagnosticRequest",
  description:
    "With url, issueKey or projectKey the issue is resolved; otherwise the credential is checked against instanceUrl (or the provider's public instance).",
});

export const RemoteProviderDiagnostics = Type.Object({
  providers: Type.Array(
    Type.Object({
      id: Type.String(),
      hasCredential: Type.Boolean(),
      status: Type.Unsafe<"configured" | "missing_credential">({
        type: "string",
        enum: ["configured", "missing_credential"],
      }),
    }),
  ),
});
