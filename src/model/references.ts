import { type Static, Type } from "@sinclair/typebox";
import { Id, Nullable, Timestamp } from "./common.js";

// Issues of other trackers a ticket points to (docs/api.md, "Remote tracking", "External
// references"): the tracked remote issue and the references by kind.

/**
 * Where an issue lives and how it is shown: the identity (provider to issueKey) and its display
 * reference and web URL. The tracked issue, a reference and an import preview all start with it.
 */
export const issueLocationFields = {
  provider: Type.String(),
  instanceUrl: Type.String(),
  resourceType: Type.String(),
  projectKey: Type.String(),
  issueKey: Type.String(),
  displayRef: Type.String(),
  url: Type.String(),
};
const IssueLocation = Type.Object(issueLocationFields);
export type IssueLocation = Static<typeof IssueLocation>;
/** One tracked issue per identity (docs/api.md, "Remote tracking"). */
export type IssueIdentity = Pick<
  IssueLocation,
  "provider" | "instanceUrl" | "resourceType" | "projectKey" | "issueKey"
>;

export const TicketRemote = Type.Object(
  {
    ticketId: Id,
    ...issueLocationFields,
    title: Type.String(),
    bodyMarkdown: Type.String(),
    bodyHtml: Type.String(),
    state: Nullable(Type.String()),
    remoteUpdatedAt: Nullable(Timestamp),
    lastSyncedAt: Timestamp,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: "TicketRemote" },
);
export type TicketRemote = Static<typeof TicketRemote>;

export const TicketRemoteSummary = Type.Object(
  { provider: Type.String(), displayRef: Type.String(), url: Type.String() },
  { $id: "TicketRemoteSummary" },
);
export type TicketRemoteSummary = Static<typeof TicketRemoteSummary>;

export const TicketExternalReference = Type.Object(
  {
    id: Id,
    ticketId: Id,
    kind: Type.String(),
    ...issueLocationFields,
    title: Nullable(Type.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: "TicketExternalReference" },
);
export type TicketExternalReference = Static<typeof TicketExternalReference>;
export const TicketExternalReferenceRef = Type.Ref(TicketExternalReference);
