import type { Stores } from "../../storage/index.js";
import type { TicketRecord, TicketRow } from "../../storage/tickets.js";
import type { ActivityRecorder } from "../activity.js";
import { now } from "../clock.js";
import { InvalidInput } from "../errors.js";
import { renderMarkdown } from "../markdown.js";
import type { Lane } from "../model.js";
import { cleanName, TITLE_MAX } from "../names.js";
import { foldForSearch, ticketSearchText } from "../search-text.js";
import type { BoardChanges } from "../transaction.js";
import { type Checklist, checklistOf } from "./checklists.js";
import { cleanNotBefore } from "./not-before.js";
import type { TicketLanes } from "./ticket-ordering.js";
import type { TicketLinkRules } from "./ticket-relations.js";

/** TicketUpsert of docs/api.md: every field optional; create requires laneId and title. */
export interface TicketUpsert {
  laneId?: number;
  parentTicketId?: number | null;
  title?: string;
  bodyMarkdown?: string;
  isResolved?: boolean;
  /** Deprecated alias of isResolved; isResolved wins when both are sent. */
  isCompleted?: boolean;
  isArchived?: boolean;
  priority?: number;
  tagIds?: number[];
  blockerIds?: number[] | null;
  relatedIds?: number[] | null;
  /** RFC 3339 date-time with an offset, or null to clear (docs/api.md, "Not before"). */
  notBefore?: string | null;
}

const UPSERT_FIELDS = [
  "laneId",
  "parentTicketId",
  "title",
  "bodyMarkdown",
  "isResolved",
  "isCompleted",
  "isArchived",
  "priority",
  "tagIds",
  "blockerIds",
  "relatedIds",
  "notBefore",
] as const;

/**
 * A ticket as a change finds it: its row, with its bodies when the change sends a body (they
 * are compared with it; any other change leaves the text row alone and needs no bodies).
 */
export type TicketBefore = TicketRow & Partial<Pick<TicketRecord, "bodyMarkdown" | "bodyHtml">>;

/** A change already checked against the ticket's board: every present field is valid. */
export interface TicketPatch {
  lane?: Lane;
  parentTicketId?: number | null;
  title?: string;
  bodyMarkdown?: string;
  bodyHtml?: string;
  isResolved?: boolean;
  isArchived?: boolean;
  priority?: number;
  tagIds?: number[];
  blockerIds?: number[];
  relatedIds?: number[];
  /** Normalised (cleanNotBefore). */
  notBefore?: string | null;
  /** The checklist of `bodyMarkdown` (given with it). */
  checklist?: Checklist;
}

/** The ticket row's columns `apply` wrote; `moved`: it went to the end of a lane (renumbered). */
export interface WrittenRow
  extends Pick<
    TicketRow,
    | "laneId"
    | "parentTicketId"
    | "title"
    | "isResolved"
    | "isArchived"
    | "priority"
    | "updatedAt"
    | "notBefore"
  > {
  moved: boolean;
  /** The body's checklist, when the body was written. */
  checklist?: Checklist;
}

/**
 * One unit of ticket writes: the boards to announce, and the lanes to renumber once at the end
 * (bulk operations append many tickets to a lane; renumbering after each would be quadratic).
 */
export class TicketBatch {
  readonly lanes = new Set<number>();
  constructor(readonly changes: BoardChanges) {}
}

/** Fields whose change is summarised in one `ticket_updated` entry. */
const UPDATE_FIELDS = [
  "title",
  "bodyMarkdown",
  "priority",
  "isResolved",
  "parentTicketId",
  "tagIds",
  "blockerIds",
  "relatedIds",
  "notBefore",
] as const;
type UpdateField = (typeof UPDATE_FIELDS)[number];

/** Both lists are free of duplicates, so equal length and inclusion mean the same set. */
function sameIds(a: readonly number[], b: readonly number[]): boolean {
  const set = new Set(b);
  return a.length === b.length && a.every((id) => set.has(id));
}

/**
 * Validation and writing of ticket changes, shared by the single-ticket endpoints, transitions
 * and bulk operations, so every path applies the same rules and writes the same activity
 * (docs/api.md, "Activity": one entry per ticket per change, in the same transaction).
 */
export function ticketEdits(
  stores: Pick<Stores, "tickets" | "ticketTags" | "ticketRelations">,
  rules: TicketLinkRules,
  lanes: TicketLanes,
  activity: ActivityRecorder,
) {
  const { tickets, ticketTags, ticketRelations } = stores;

  /** Checks text fields before any transaction starts (and renders Markdown once). */
  function cleanText(
    input: TicketUpsert,
  ): Pick<TicketPatch, "title" | "bodyMarkdown" | "bodyHtml" | "checklist"> {
    const text: Pick<TicketPatch, "title" | "bodyMarkdown" | "bodyHtml" | "checklist"> = {};
    if (input.title !== undefined) text.title = cleanName(input.title, "title", TITLE_MAX);
    if (input.bodyMarkdown !== undefined) {
      text.bodyMarkdown = input.bodyMarkdown;
      text.bodyHtml = renderMarkdown(input.bodyMarkdown);
      text.checklist = checklistOf(input.bodyMarkdown);
    }
    return text;
  }

  /** Checks the board-dependent fields of an upsert for a ticket (existing or about to be). */
  function resolve(subject: { boardId: number; id?: number }, input: TicketUpsert): TicketPatch {
    const patch: TicketPatch = {};
    if (input.laneId !== undefined) patch.lane = lanes.laneOfBoard(subject.boardId, input.laneId);
    if (input.parentTicketId !== undefined) {
      patch.parentTicketId = rules.parentTicketId(subject, input.parentTicketId);
    }
    const isResolved = input.isResolved ?? input.isCompleted;
    if (isResolved !== undefined) patch.isResolved = isResolved;
    if (input.isArchived !== undefined) patch.isArchived = input.isArchived;
    if (input.priority !== undefined) patch.priority = input.priority;
    if (input.tagIds !== undefined) patch.tagIds = rules.tagIds(subject.boardId, input.tagIds);
    if (input.blockerIds !== undefined) {
      patch.blockerIds = rules.blockerIds(subject, input.blockerIds ?? []);
    }
    if (input.relatedIds !== undefined) {
      patch.relatedIds = rules.relatedIds(subject, input.relatedIds ?? []);
    }
    if (input.notBefore !== undefined) patch.notBefore = cleanNotBefore(input.notBefore);
    return patch;
  }

  /** Current link lists of a ticket, for the fields a patch sends. */
  function currentLinks(ticketId: number, patch: TicketPatch) {
    const ids = [ticketId];
    return {
      tagIds: patch.tagIds && (ticketTags.tagIdsOf(ids).get(ticketId) ?? []),
      blockerIds: patch.blockerIds && (ticketRelations.blockerIds(ids).get(ticketId) ?? []),
      relatedIds: patch.relatedIds && (ticketRelations.relatedIds(ids).get(ticketId) ?? []),
    };
  }

  type Links = ReturnType<typeof currentLinks>;

  function changedFields(before: TicketBefore, patch: TicketPatch, links: Links): UpdateField[] {
    return UPDATE_FIELDS.filter((field) => {
      const next = patch[field];
      if (next === undefined) return false;
      if (field === "tagIds" || field === "blockerIds" || field === "relatedIds") {
        return !sameIds(links[field] ?? [], next as number[]);
      }
      return before[field] !== next;
    });
  }

  function recordUpdate(
    before: TicketBefore,
    patch: TicketPatch,
    fields: UpdateField[],
    previousLinks: Links,
    resolvedActions: boolean,
  ) {
    const valueIn = (source: "before" | "after", field: UpdateField) => {
      if (field === "tagIds" || field === "blockerIds" || field === "relatedIds") {
        const ids = source === "before" ? (previousLinks[field] ?? []) : (patch[field] ?? []);
        return [...ids].sort((a, b) => a - b);
      }
      return source === "before" ? before[field] : patch[field];
    };
    // Bodies can be 200,000 characters: the entry names the change without copying them.
    const shown = fields.filter((field) => field !== "bodyMarkdown");
    const only = fields.length === 1 ? fields[0] : undefined;
    const message =
      only === "isResolved"
        ? patch.isResolved
          ? "Ticket resolved"
          : "Ticket reopened"
        : only === "title"
          ? "Ticket title updated"
          : "Ticket updated";
    const action =
      resolvedActions && only === "isResolved"
        ? patch.isResolved
          ? "ticket_resolved"
          : "ticket_reopened"
        : "ticket_updated";
    activity.record({
      boardId: before.boardId,
      ticketId: before.id,
      action,
      message,
      details: {
        changed: fields,
        before: Object.fromEntries(shown.map((field) => [field, valueIn("before", field)])),
        after: Object.fromEntries(shown.map((field) => [field, valueIn("after", field)])),
      },
    });
  }

  return {
    cleanText,
    resolve,

    /** 400 when an upsert used as a PATCH carries none of the known fields. */
    assertSomeField(input: TicketUpsert): void {
      if (!UPSERT_FIELDS.some((field) => input[field] !== undefined)) {
        throw new InvalidInput(
          `nothing to update: send at least one of ${UPSERT_FIELDS.join(", ")}`,
        );
      }
    },

    /**
     * The ticket's row after `apply` wrote `patch` (`written`: what apply returned) and the batch
     * was settled: `before` when nothing was written; else, when the ticket moved in its lane
     * (settling renumbered it), its row read again; else `before` with the columns written and
     * the version read alone (raised by the change triggers, storage/ticket-changes.ts): nothing
     * else of the row changes, and the full read cost ~10 us per PATCH.
     */
    after(before: TicketRow, written: WrittenRow | undefined): TicketRow {
      if (!written) return before;
      const version = written.moved ? undefined : tickets.version(before.id);
      if (version !== undefined) {
        return {
          id: before.id,
          boardId: before.boardId,
          laneId: written.laneId,
          parentTicketId: written.parentTicketId,
          title: written.title,
          isResolved: written.isResolved,
          isArchived: written.isArchived,
          priority: written.priority,
          position: before.position,
          createdAt: before.createdAt,
          updatedAt: written.updatedAt,
          version,
          notBefore: written.notBefore,
          openAsks: before.openAsks,
          checklistDone: written.checklist?.done ?? before.checklistDone,
          checklistTotal: written.checklist?.total ?? before.checklistTotal,
        };
      }
      const row = tickets.row(before.id);
      if (!row) throw new Error(`ticket ${before.id} vanished while it was changed`);
      return row;
    },

    /**
     * Applies a checked patch to an existing ticket and records its activity: a lane change is
     * `ticket_transitioned` (appended to the new lane), an archive change `ticket_archived` or
     * `ticket_restored` (moved to the end of its lane: the end of the active tickets when
     * restored), everything else one `ticket_updated`. Nothing is written when nothing changes
     * (undefined); else the row's columns as written, `moved` when it changed lane or archive
     * state (its position is then the renumbering's).
     */
    apply(
      before: TicketBefore,
      patch: TicketPatch,
      batch: TicketBatch,
      options: { resolvedActions?: boolean } = {},
    ): WrittenRow | undefined {
      if (patch.bodyMarkdown !== undefined && before.bodyMarkdown === undefined) {
        throw new Error("a body change needs the ticket's bodies to compare with");
      }
      const previousLinks = currentLinks(before.id, patch);
      const fields = changedFields(before, patch, previousLinks);
      const laneChanged = patch.lane !== undefined && patch.lane.id !== before.laneId;
      const archiveChanged =
        patch.isArchived !== undefined && patch.isArchived !== before.isArchived;
      if (fields.length === 0 && !laneChanged && !archiveChanged) return undefined;

      const title = patch.title ?? before.title;
      const row = {
        laneId: patch.lane?.id ?? before.laneId,
        parentTicketId:
          patch.parentTicketId === undefined ? before.parentTicketId : patch.parentTicketId,
        title,
        isResolved: patch.isResolved ?? before.isResolved,
        isArchived: patch.isArchived ?? before.isArchived,
        priority: patch.priority ?? before.priority,
        updatedAt: now(),
        notBefore: patch.notBefore === undefined ? before.notBefore : patch.notBefore,
      };
      let checklist: Checklist | undefined;
      if (patch.bodyMarkdown !== undefined) {
        const { bodyMarkdown } = patch;
        const bodyHtml = patch.bodyHtml ?? renderMarkdown(bodyMarkdown);
        const searchText = ticketSearchText(title, bodyMarkdown);
        const stored = before as TicketRecord;
        checklist = patch.checklist ?? checklistOf(bodyMarkdown);
        tickets.update(before.id, {
          ...row,
          bodyMarkdown,
          bodyHtml,
          searchText,
          checklist,
          stored,
        });
      } else {
        // The bodies stay: only the ticket row is written (the title's search text is on it).
        const titleSearch = foldForSearch(title);
        tickets.updateRow(before.id, { ...row, titleSearch, stored: before });
      }
      if (patch.tagIds && fields.includes("tagIds")) {
        ticketTags.replace(before.id, patch.tagIds, now());
      }
      if (patch.blockerIds && fields.includes("blockerIds")) {
        ticketRelations.setBlockers(before.id, patch.blockerIds);
      }
      if (patch.relatedIds && fields.includes("relatedIds")) {
        ticketRelations.setRelated(before.id, patch.relatedIds);
      }
      if (laneChanged || archiveChanged) {
        const laneId = patch.lane?.id ?? before.laneId;
        lanes.append(before.id, laneId);
        batch.lanes.add(before.laneId).add(laneId);
      }

      if (fields.length > 0) {
        recordUpdate(before, patch, fields, previousLinks, options.resolvedActions ?? false);
      }
      if (laneChanged && patch.lane) {
        activity.record({
          boardId: before.boardId,
          ticketId: before.id,
          action: "ticket_transitioned",
          message: `Moved to ${patch.lane.name}`,
          details: { fromLaneId: before.laneId, toLaneId: patch.lane.id },
        });
      }
      if (archiveChanged) {
        activity.record({
          boardId: before.boardId,
          ticketId: before.id,
          action: patch.isArchived ? "ticket_archived" : "ticket_restored",
          message: patch.isArchived ? "Ticket archived" : "Ticket restored",
          details: {
            before: { isArchived: before.isArchived },
            after: { isArchived: patch.isArchived },
          },
        });
      }
      batch.changes.touched(before.boardId);
      return { ...row, moved: laneChanged || archiveChanged, ...(checklist ? { checklist } : {}) };
    },

    /** Renumbers every lane the batch appended to or took tickets from. */
    settle(batch: TicketBatch): void {
      lanes.renumber(batch.lanes);
      batch.lanes.clear();
    },
  };
}

export type TicketEdits = ReturnType<typeof ticketEdits>;
