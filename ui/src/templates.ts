import { api } from "./api";
import { lanes } from "./board-data";
import { putTickets } from "./ticket-writes";
import type { Template, TemplateTicket, Ticket, TicketSummary } from "./types";

// A board's templates (docs/api.md, "Templates"): a named set of tickets, with `{{variables}}` in
// titles and bodies, made in one step. The server validates everything (keys, lanes, parents,
// blockers, variables) and its 400 sentence is shown as it is.

/** The template fields the page sends on create and PATCH. */
export interface TemplateDraft {
  name: string;
  description: string;
  tickets: TemplateTicket[];
}

export function listTemplates(boardId: number): Promise<Template[]> {
  return api
    .get<{ templates: Template[] }>(`/api/boards/${boardId}/templates`)
    .then((answer) => answer.templates);
}

export function saveTemplate(
  boardId: number,
  id: number | null,
  draft: TemplateDraft,
): Promise<Template> {
  return id === null
    ? api.post<Template>(`/api/boards/${boardId}/templates`, draft)
    : api.patch<Template>(`/api/templates/${id}`, draft);
}

export function deleteTemplate(id: number): Promise<void> {
  return api.delete(`/api/templates/${id}`);
}

/** Makes the template's tickets; they join the open board's copy at once. */
export async function instantiate(
  id: number,
  values: Record<string, string>,
  laneId: number | null,
): Promise<Ticket[]> {
  const answer = await api.post<{ tickets: Ticket[] }>(`/api/templates/${id}/instantiate`, {
    values,
    ...(laneId === null ? {} : { laneId }),
  });
  putTickets(answer.tickets as unknown as TicketSummary[]);
  return answer.tickets;
}

/** The variables of a draft as the server derives them: `{{name}}` in titles and bodies. */
export function variablesOf(tickets: readonly TemplateTicket[]): string[] {
  const names = new Set<string>();
  for (const ticket of tickets) {
    for (const text of [ticket.title, ticket.bodyMarkdown]) {
      for (const match of text.matchAll(/\{\{([A-Za-z_][A-Za-z0-9_]{0,49})\}\}/g)) {
        names.add(match[1] as string);
      }
    }
  }
  return [...names].sort();
}

export function emptyTicket(key: string): TemplateTicket {
  return {
    key,
    title: "",
    bodyMarkdown: "",
    laneName: null,
    priority: 2,
    tagNames: [],
    parentKey: null,
    blockerKeys: [],
  };
}

/**
 * A template drafted from tickets of the open board: each keeps its title, body, lane, priority
 * and tags; a parent or blocker among them becomes a key reference (others are left out).
 */
export async function draftFromTickets(ids: readonly number[]): Promise<TemplateTicket[]> {
  const full = await Promise.all(ids.map((id) => api.get<Ticket>(`/api/tickets/${id}`)));
  full.sort((a, b) => a.laneId - b.laneId || a.position - b.position || a.id - b.id);
  const keyOf = new Map(full.map((ticket, index) => [ticket.id, `t${index + 1}`]));
  const laneName = new Map(lanes.value.map((lane) => [lane.id, lane.name]));
  return full.map((ticket) => ({
    key: keyOf.get(ticket.id) as string,
    title: ticket.title,
    bodyMarkdown: ticket.bodyMarkdown,
    laneName: laneName.get(ticket.laneId) ?? null,
    priority: ticket.priority,
    tagNames: ticket.tags.map((tag) => tag.name),
    parentKey: ticket.parentTicketId === null ? null : (keyOf.get(ticket.parentTicketId) ?? null),
    blockerKeys: ticket.blockerIds
      .map((id) => keyOf.get(id))
      .filter((key): key is string => key !== undefined),
  }));
}
