import type { Template, TemplateTicket } from "../../model/templates.js";
import type { Stores } from "../../storage/index.js";
import type { TemplateRow } from "../../storage/templates.js";
import type { BoardService } from "../boards/boards.js";
import type { TagService } from "../boards/tags.js";
import { now } from "../clock.js";
import { Conflict, found, InvalidInput } from "../errors.js";
import type { Lane, Ticket } from "../model.js";
import { cleanName, nameKey, TITLE_MAX } from "../names.js";
import type { TicketService } from "../tickets/tickets.js";
import type { BoardChanges, Transact } from "../transaction.js";
import {
  checkBody,
  checkValues,
  cleanDescription,
  cleanTemplateTickets,
  substitute,
  type TemplateTicketInput,
  templateVariables,
} from "./template-rules.js";

export interface TemplateCreateInput {
  name: string;
  description?: string;
  tickets: TemplateTicketInput[];
}

export type TemplatePatchInput = Partial<TemplateCreateInput>;

export interface InstantiateInput {
  values?: Record<string, string>;
  laneId?: number;
}

export function toTemplate(row: TemplateRow): Template {
  const tickets = JSON.parse(row.ticketsJson) as TemplateTicket[];
  return {
    id: row.id,
    boardId: row.boardId,
    name: row.name,
    description: row.description,
    variables: templateVariables(tickets),
    tickets,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * Templates: a board's named sets of tickets, and their instantiation. Making the tickets goes
 * through the ticket service (its rules, activity and positions) and the tag service, inside one
 * unit of work, so the board's stream hears of it once.
 */
export function templateService(
  stores: Pick<Stores, "templates" | "lanes" | "tags">,
  deps: {
    boards: Pick<BoardService, "require">;
    tickets: Pick<TicketService, "create" | "update" | "get">;
    tags: Pick<TagService, "create">;
  },
  transact: Transact,
) {
  const { templates } = stores;

  function require(templateId: number): TemplateRow {
    return found(templates.get(templateId), "template");
  }

  /** Names are unique per board ignoring case, like tag names. */
  function assertNameFree(boardId: number, name: string, exceptId?: number): void {
    const clash = templates.findByKey(boardId, nameKey(name));
    if (clash && clash.id !== exceptId) {
      throw new Conflict(`a template named ${clash.name} already exists on this board`);
    }
  }

  const laneNamesOf = (boardId: number) =>
    new Set(stores.lanes.listByBoard(boardId).map((lane) => lane.name));

  /** Templates are part of the board: its stream tells followers (a UI listing them). */
  const boardChanged = (boardId: number, changes: BoardChanges) => changes.touched(boardId);

  /**
   * The lane of each ticket: its `laneName` (the first lane of that name), else `laneId`, else
   * the board's first lane. Throws before anything is written.
   */
  function lanesFor(boardId: number, tickets: readonly TemplateTicket[], laneId?: number): Lane[] {
    const lanes = stores.lanes.listByBoard(boardId);
    let fallback: Lane | undefined = lanes[0];
    if (laneId !== undefined) {
      fallback = lanes.find((lane) => lane.id === laneId);
      if (!fallback) throw new InvalidInput("laneId is not a lane of this board");
    }
    return tickets.map((ticket, index) => {
      if (ticket.laneName === null) {
        if (!fallback) throw new InvalidInput("the board has no lane to put tickets in");
        return fallback;
      }
      const lane = lanes.find((candidate) => candidate.name === ticket.laneName);
      if (!lane) {
        throw new InvalidInput(
          `tickets[${index}].laneName ${JSON.stringify(ticket.laneName)} is no longer a lane of this board`,
        );
      }
      return lane;
    });
  }

  /** The board's tag of each name (ignoring case, as tag names are unique); missing ones made. */
  function tagIdsFor(boardId: number, tickets: readonly TemplateTicket[]): Map<string, number> {
    const ids = new Map<string, number>();
    for (const ticket of tickets) {
      for (const name of ticket.tagNames) {
        const key = nameKey(name);
        if (ids.has(key)) continue;
        const tag =
          stores.tags.findByKey(boardId, key) ?? deps.tags.create(boardId, { name, color: "" });
        ids.set(key, tag.id);
      }
    }
    return ids;
  }

  return {
    require,

    list(boardId: number): Template[] {
      deps.boards.require(boardId);
      return templates.listByBoard(boardId).map(toTemplate);
    },

    get: (templateId: number): Template => toTemplate(require(templateId)),

    create(boardId: number, input: TemplateCreateInput): Template {
      const name = cleanName(input.name, "name");
      const description = cleanDescription(input.description);
      return transact((changes) => {
        deps.boards.require(boardId);
        const tickets = cleanTemplateTickets(input.tickets, laneNamesOf(boardId));
        assertNameFree(boardId, name);
        const at = now();
        const id = templates.insert(boardId, {
          name,
          nameKey: nameKey(name),
          description,
          ticketsJson: JSON.stringify(tickets),
          createdAt: at,
          updatedAt: at,
        });
        boardChanged(boardId, changes);
        return toTemplate(require(id));
      });
    },

    /** PATCH: the fields given replace the template's, each checked as on create. */
    update(templateId: number, input: TemplatePatchInput): Template {
      if (
        input.name === undefined &&
        input.description === undefined &&
        input.tickets === undefined
      ) {
        throw new InvalidInput("nothing to update: send name, description or tickets");
      }
      const name = input.name === undefined ? undefined : cleanName(input.name, "name");
      const description =
        input.description === undefined ? undefined : cleanDescription(input.description);
      return transact((changes) => {
        const template = require(templateId);
        const tickets =
          input.tickets === undefined
            ? undefined
            : cleanTemplateTickets(input.tickets, laneNamesOf(template.boardId));
        if (name !== undefined) assertNameFree(template.boardId, name, templateId);
        const nextName = name ?? template.name;
        templates.update(templateId, {
          name: nextName,
          nameKey: nameKey(nextName),
          description: description ?? template.description,
          ticketsJson: tickets === undefined ? template.ticketsJson : JSON.stringify(tickets),
          updatedAt: now(),
        });
        boardChanged(template.boardId, changes);
        return toTemplate(require(templateId));
      });
    },

    remove(templateId: number): void {
      transact((changes) => {
        const template = require(templateId);
        templates.remove(templateId);
        boardChanged(template.boardId, changes);
      });
    },

    /**
     * Makes the template's tickets in one unit of work, in template order: each created as
     * `POST /api/boards/{id}/tickets` would create it (same rules, activity, end of its lane),
     * with its parent and blockers when those were made before it; links to tickets made after
     * it are set once they exist, as a client creating the tickets one by one would set them.
     */
    instantiate(templateId: number, input: InstantiateInput): Ticket[] {
      const ids = transact(() => {
        const template = toTemplate(require(templateId));
        const { boardId } = template;
        const values = checkValues(template.variables, input.values ?? {});
        const lanes = lanesFor(boardId, template.tickets, input.laneId);
        const texts = template.tickets.map((ticket, index) => ({
          title: cleanName(substitute(ticket.title, values), `tickets[${index}].title`, TITLE_MAX),
          bodyMarkdown: checkBody(
            substitute(ticket.bodyMarkdown, values),
            `tickets[${index}].bodyMarkdown`,
          ),
        }));
        const tagIds = tagIdsFor(boardId, template.tickets);

        const idByKey = new Map<string, number>();
        const later: Array<{ id: number; ticket: TemplateTicket }> = [];
        template.tickets.forEach((ticket, index) => {
          const parentTicketId =
            ticket.parentKey === null ? undefined : idByKey.get(ticket.parentKey);
          const blockerIds = ticket.blockerKeys.flatMap((key) => idByKey.get(key) ?? []);
          const created = deps.tickets.create(boardId, {
            laneId: (lanes[index] as Lane).id,
            ...(texts[index] as { title: string; bodyMarkdown: string }),
            priority: ticket.priority,
            tagIds: ticket.tagNames.map((name) => tagIds.get(nameKey(name)) as number),
            ...(parentTicketId === undefined ? {} : { parentTicketId }),
            ...(blockerIds.length === 0 ? {} : { blockerIds }),
          });
          idByKey.set(ticket.key, created.id);
          if (
            (ticket.parentKey !== null && parentTicketId === undefined) ||
            blockerIds.length < ticket.blockerKeys.length
          ) {
            later.push({ id: created.id, ticket });
          }
        });
        for (const { id, ticket } of later) {
          const key = (name: string) => idByKey.get(name) as number;
          deps.tickets.update(id, {
            ...(ticket.parentKey === null ? {} : { parentTicketId: key(ticket.parentKey) }),
            blockerIds: ticket.blockerKeys.map(key),
          });
        }
        return [...idByKey.values()];
      });
      // Read after the commit: a ticket made early shows the links later ones made to it.
      return ids.map((id) => deps.tickets.get(id));
    },
  };
}

export type TemplateService = ReturnType<typeof templateService>;
