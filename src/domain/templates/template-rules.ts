import {
  DEFAULT_PRIORITY,
  TEMPLATE_DESCRIPTION_MAX,
  TEMPLATE_KEY_MAX,
  TEMPLATE_TICKETS_MAX,
} from "../../model/limits.js";
import type { TemplateTicket } from "../../model/templates.js";
import { InvalidInput } from "../errors.js";
import { BODY_MAX, cleanName, nameKey, TITLE_MAX } from "../names.js";
import { findBlockerCycle } from "../tickets/blocker-cycles.js";

/**
 * The rules of a template's content (docs/api.md, "Templates"), with no storage: the template
 * service checks requests with them, the board import checks a document's templates with them.
 * Messages name the element as sent (`tickets[2].parentKey`), under a prefix the caller gives
 * (`templates[0].tickets` in an import).
 */

/** One ticket of a template as a request sends it. */
export interface TemplateTicketInput {
  key: string;
  title: string;
  bodyMarkdown?: string;
  laneName?: string | null;
  priority?: number;
  tagNames?: string[];
  parentKey?: string | null;
  blockerKeys?: string[];
}

/**
 * `{{name}}`: a letter or `_`, then up to 49 letters, digits or `_` (ASCII; case counts). Braces
 * around anything else (`{{ name }}`, `{{1x}}`) are text and stay as they are.
 */
const VARIABLE = /\{\{([A-Za-z_][A-Za-z0-9_]{0,49})\}\}/g;

/** Characters as JSON Schema's maxLength counts them (code points), as names.ts does. */
function longerThan(text: string, max: number): boolean {
  return text.length > max && [...text].length > max;
}

export function cleanDescription(value: string | undefined, field = "description"): string {
  const description = value ?? "";
  if (longerThan(description, TEMPLATE_DESCRIPTION_MAX)) {
    throw new InvalidInput(`${field} must be at most ${TEMPLATE_DESCRIPTION_MAX} characters`);
  }
  return description;
}

/** A body (stored as sent) within the limit of a ticket's body. */
export function checkBody(body: string, field: string): string {
  if (longerThan(body, BODY_MAX)) {
    throw new InvalidInput(`${field} must be at most ${BODY_MAX} characters`);
  }
  return body;
}

/**
 * Checks a template's tickets against the lanes of its board (names, exact) and fills their
 * defaults. Throws InvalidInput naming the first problem.
 */
export function cleanTemplateTickets(
  input: readonly TemplateTicketInput[],
  laneNames: ReadonlySet<string>,
  prefix = "tickets",
): TemplateTicket[] {
  if (input.length === 0 || input.length > TEMPLATE_TICKETS_MAX) {
    throw new InvalidInput(`${prefix} must hold 1 to ${TEMPLATE_TICKETS_MAX} tickets`);
  }
  const indexByKey = new Map<string, number>();
  const tickets = input.map((ticket, index): TemplateTicket => {
    const field = (name: string) => `${prefix}[${index}].${name}`;
    const key = cleanName(ticket.key, field("key"), TEMPLATE_KEY_MAX);
    const clash = indexByKey.get(key);
    if (clash !== undefined) {
      throw new InvalidInput(`${field("key")} repeats the key of ${prefix}[${clash}]`);
    }
    indexByKey.set(key, index);
    const priority = ticket.priority ?? DEFAULT_PRIORITY;
    if (!Number.isInteger(priority) || priority < 1 || priority > 4) {
      throw new InvalidInput(`${field("priority")} must be one of 1, 2, 3, 4`);
    }
    return {
      key,
      title: cleanName(ticket.title, field("title"), TITLE_MAX),
      bodyMarkdown: checkBody(ticket.bodyMarkdown ?? "", field("bodyMarkdown")),
      laneName: cleanLaneName(ticket.laneName, laneNames, field("laneName")),
      priority,
      tagNames: distinctTagNames(ticket.tagNames ?? [], field("tagNames")),
      parentKey: ticket.parentKey == null ? null : cleanName(ticket.parentKey, field("parentKey")),
      blockerKeys: [
        ...new Set(
          (ticket.blockerKeys ?? []).map((blocker, position) =>
            cleanName(blocker, field(`blockerKeys[${position}]`)),
          ),
        ),
      ],
    };
  });

  tickets.forEach((ticket, index) => {
    const field = (name: string) => `${prefix}[${index}].${name}`;
    if (ticket.parentKey !== null) {
      const parent = indexByKey.get(ticket.parentKey);
      if (parent === undefined) {
        throw new InvalidInput(`${field("parentKey")} is not a key of this template`);
      }
      if (parent === index) {
        throw new InvalidInput(`${field("parentKey")}: a ticket cannot be its own parent`);
      }
      // One level, as for tickets: a parent has no parent, so a child has no children.
      if (tickets[parent]?.parentKey !== null) {
        throw new InvalidInput(
          `${field("parentKey")} names a ticket that has a parent; parents cannot be nested`,
        );
      }
    }
    for (const blocker of ticket.blockerKeys) {
      const position = (input[index]?.blockerKeys ?? []).findIndex(
        (sent) => sent.trim() === blocker,
      );
      const other = indexByKey.get(blocker);
      if (other === undefined) {
        throw new InvalidInput(
          `${field(`blockerKeys[${position}]`)} is not a key of this template`,
        );
      }
      if (other === index) {
        throw new InvalidInput(
          `${field(`blockerKeys[${position}]`)}: a ticket cannot block itself`,
        );
      }
    }
  });
  assertNoBlockerCycle(tickets, indexByKey, input, prefix);
  return tickets;
}

function cleanLaneName(
  value: string | null | undefined,
  laneNames: ReadonlySet<string>,
  field: string,
): string | null {
  if (value == null) return null;
  // Matched as a transition matches it: trimmed, exact (docs/api.md, "Tickets").
  const name = cleanName(value, field);
  if (!laneNames.has(name)) {
    throw new InvalidInput(`${field} ${JSON.stringify(name)} is not a lane of this board`);
  }
  return name;
}

/** Tag names trimmed; names equal ignoring case name one tag, so only the first is kept. */
function distinctTagNames(names: readonly string[], field: string): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  names.forEach((value, position) => {
    const name = cleanName(value, `${field}[${position}]`);
    const key = nameKey(name);
    if (seen.has(key)) return;
    seen.add(key);
    kept.push(name);
  });
  return kept;
}

/**
 * Blocker cycles of any length are refused, as between tickets; the message names the link
 * that closes one. (tickets/blocker-cycles.ts).
 */
function assertNoBlockerCycle(
  tickets: readonly TemplateTicket[],
  indexByKey: ReadonlyMap<string, number>,
  input: readonly TemplateTicketInput[],
  prefix: string,
): void {
  const edges = tickets.map((ticket) =>
    ticket.blockerKeys.map((key) => indexByKey.get(key) as number),
  );
  const cycle = findBlockerCycle(edges);
  if (cycle === undefined) return;
  const key = tickets[cycle.node]?.blockerKeys[cycle.edge];
  const position = (input[cycle.node]?.blockerKeys ?? []).findIndex((sent) => sent.trim() === key);
  throw new InvalidInput(
    `${prefix}[${cycle.node}].blockerKeys[${position}]: blocker would create a cycle`,
  );
}

/**
 * The distinct variable names written in the tickets' titles and bodies (not the description),
 * sorted by code point: names are ASCII, where UTF-16 order is code point order.
 */
export function templateVariables(tickets: readonly TemplateTicket[]): string[] {
  const names = new Set<string>();
  for (const ticket of tickets) {
    for (const text of [ticket.title, ticket.bodyMarkdown]) {
      for (const match of text.matchAll(VARIABLE)) names.add(match[1] as string);
    }
  }
  return [...names].sort();
}

/**
 * Checks the values of an instantiation against the template's variables: every variable needs
 * a value, and every value a variable (400 naming the first name that fails, in code point
 * order).
 */
export function checkValues(
  variables: readonly string[],
  values: Readonly<Record<string, string>>,
): Map<string, string> {
  const given = new Map(Object.entries(values));
  for (const name of variables) {
    if (!given.has(name)) throw new InvalidInput(`values.${name} is required`);
  }
  const known = new Set(variables);
  for (const name of [...given.keys()].sort()) {
    if (!known.has(name)) {
      throw new InvalidInput(`values.${name} is not a variable of this template`);
    }
  }
  return given;
}

/** Replaces every `{{name}}` by its value once, literally (a value is never read again). */
export function substitute(text: string, values: ReadonlyMap<string, string>): string {
  return text.replace(VARIABLE, (whole, name: string) => values.get(name) ?? whole);
}
