import { Type } from "@sinclair/typebox";
import { REFERENCE_KIND_PATTERN } from "../../domain/annotations/external-references.js";
import { Id, Nullable } from "./common.js";

export const ReferenceKind = Type.String({
  pattern: REFERENCE_KIND_PATTERN,
  description: "Purpose of the reference (source, spec, doc, ...): 1-64 characters.",
});

export const ExternalReferenceParams = Type.Object({ ticketId: Id, kind: ReferenceKind });

/** The fields a client sets on a reference, as the endpoint and a board import take them. */
export const referenceSetFields = {
  provider: Type.String(),
  instanceUrl: Type.String(),
  projectKey: Type.String(),
  issueKey: Type.String(),
  displayRef: Type.String(),
  url: Type.String(),
  resourceType: Type.Optional(Type.String()),
  title: Type.Optional(Nullable(Type.String())),
};

/** Strings are trimmed; provider, displayRef and url must not be blank. */
export const TicketExternalReferenceSet = Type.Object(
  {
    ...referenceSetFields,
    resourceType: Type.Optional(Type.String({ description: "Default issue." })),
    title: Type.Optional(Nullable(Type.String({ description: "Blank means null." }))),
  },
  { $id: "TicketExternalReferenceSet" },
);
