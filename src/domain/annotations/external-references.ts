import type { ExternalReferenceFields } from "../../storage/external-references.js";
import type { Stores } from "../../storage/index.js";
import type { ActivityRecorder } from "../activity.js";
import { now } from "../clock.js";
import { InvalidInput, NotFound } from "../errors.js";
import type { Ticket, TicketExternalReference } from "../model.js";
import { cleanName, optionalText, TITLE_MAX } from "../names.js";
import { searchTextOf } from "../search-text.js";
import type { TicketService } from "../tickets/tickets.js";
import type { Transact } from "../transaction.js";

/** TicketExternalReferenceSet of docs/api.md. */
export interface ExternalReferenceInput {
  provider: string;
  instanceUrl: string;
  projectKey: string;
  issueKey: string;
  displayRef: string;
  url: string;
  resourceType?: string;
  title?: string | null;
}

/** docs/api.md Limits: 1-64 characters, a letter first, then letters, digits, `_` or `-`. */
export const REFERENCE_KIND_PATTERN = "^[A-Za-z][A-Za-z0-9_-]{0,63}$";
/** Limit the contract leaves open (docs/decisions.md): long enough for any URL in practice. */
const FIELD_MAX = 2000;

/**
 * Checks and normalises a reference: every string trimmed; provider, displayRef and url must
 * not be blank (they are what a client shows and opens); instanceUrl, projectKey and issueKey
 * may be empty for providers without such a notion; resourceType defaults to `issue`; a blank
 * title is null. `prefix` names the reference in messages when it comes from a board import.
 */
export function cleanExternalReference(
  input: ExternalReferenceInput,
  prefix = "",
): ExternalReferenceFields {
  const required = (value: string, field: string) =>
    cleanName(value, `${prefix}${field}`, FIELD_MAX);
  const plain = (value: string, field: string) => {
    const trimmed = value.trim();
    if (trimmed.length > FIELD_MAX) {
      throw new InvalidInput(`${prefix}${field} must be at most ${FIELD_MAX} characters`);
    }
    return trimmed;
  };
  return {
    provider: required(input.provider, "provider"),
    instanceUrl: plain(input.instanceUrl, "instanceUrl"),
    resourceType: input.resourceType?.trim() ? plain(input.resourceType, "resourceType") : "issue",
    projectKey: plain(input.projectKey, "projectKey"),
    issueKey: plain(input.issueKey, "issueKey"),
    displayRef: required(input.displayRef, "displayRef"),
    url: required(input.url, "url"),
    title: optionalText(input.title, `${prefix}title`, TITLE_MAX),
  };
}

/** What the list's `q` matches for a reference (docs/api.md, "Search", the third form). */
export function referenceSearchText(kind: string, fields: ExternalReferenceFields): string {
  const { provider, projectKey, issueKey, displayRef, url, title } = fields;
  return searchTextOf(provider, projectKey, issueKey, displayRef, url, title, kind);
}

const FIELD_NAMES = [
  "provider",
  "instanceUrl",
  "resourceType",
  "projectKey",
  "issueKey",
  "displayRef",
  "url",
  "title",
] as const;

const sameFields = (a: TicketExternalReference, b: ExternalReferenceFields) =>
  FIELD_NAMES.every((field) => a[field] === b[field]);

const fieldsOf = (reference: TicketExternalReference): ExternalReferenceFields =>
  Object.fromEntries(FIELD_NAMES.map((field) => [field, reference[field]])) as never;

/**
 * Non-tracking references from a ticket to issues elsewhere, one per `kind` (a purpose such as
 * `source`, `spec`, `doc`). They offer no refresh, sync or push, and take no part in the
 * one-ticket-per-tracked-issue rule. Setting is idempotent: the same body again writes nothing.
 */
export function externalReferenceService(
  stores: Pick<Stores, "externalReferences" | "tickets">,
  deps: { tickets: Pick<TicketService, "require" | "get">; activity: ActivityRecorder },
  transact: Transact,
) {
  const { externalReferences } = stores;
  const { tickets, activity } = deps;

  return {
    /** PUT: creates or replaces the reference of that kind; answers the full ticket. */
    set(ticketId: number, kind: string, input: ExternalReferenceInput): Ticket {
      const fields = cleanExternalReference(input);
      return transact((changes) => {
        const ticket = tickets.require(ticketId);
        const before = externalReferences.getByKind(ticketId, kind);
        if (before && sameFields(before, fields)) return tickets.get(ticketId);
        const at = now();
        const searchText = referenceSearchText(kind, fields);
        let referenceId: number;
        if (before) {
          referenceId = before.id;
          externalReferences.update(before.id, fields, searchText, at);
        } else {
          referenceId = externalReferences.insert({
            ...fields,
            ticketId,
            kind,
            searchText,
            createdAt: at,
            updatedAt: at,
          });
        }
        stores.tickets.touch(ticketId, at);
        activity.record({
          boardId: ticket.boardId,
          ticketId,
          action: "external_reference_set",
          message: `External reference ${kind} set to ${fields.displayRef}`,
          details: {
            kind,
            referenceId,
            before: before ? fieldsOf(before) : null,
            after: fields,
          },
        });
        changes.touched(ticket.boardId);
        return tickets.get(ticketId);
      });
    },

    /** DELETE: 404 when the ticket has no reference of that kind. */
    remove(ticketId: number, kind: string): Ticket {
      return transact((changes) => {
        const ticket = tickets.require(ticketId);
        const before = externalReferences.getByKind(ticketId, kind);
        if (!before) throw new NotFound(`no external reference of kind ${kind} on this ticket`);
        externalReferences.remove(before.id);
        stores.tickets.touch(ticketId, now());
        activity.record({
          boardId: ticket.boardId,
          ticketId,
          action: "external_reference_removed",
          message: `External reference ${kind} removed`,
          details: { kind, referenceId: before.id, before: fieldsOf(before) },
        });
        changes.touched(ticket.boardId);
        return tickets.get(ticketId);
      });
    },
  };
}

export type ExternalReferenceService = ReturnType<typeof externalReferenceService>;
