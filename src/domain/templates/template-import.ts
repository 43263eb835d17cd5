import type { TemplateWrite } from "../../storage/templates.js";
import { InvalidInput } from "../errors.js";
import { cleanName, nameKey } from "../names.js";
import {
  cleanDescription,
  cleanTemplateTickets,
  type TemplateTicketInput,
} from "./template-rules.js";

/** A template of a board document (docs/export-format.md): an export's, or written by hand. */
export interface ImportTemplate {
  name: string;
  description?: string;
  tickets: TemplateTicketInput[];
  createdAt?: string;
  updatedAt?: string;
}

/**
 * Checks a document's templates against the document's lane names with the rules of
 * `POST /api/boards/{id}/templates`, naming the element (`templates[1].tickets[0].laneName`);
 * a name repeated ignoring case is a 400 here (the document is one request). Times are kept
 * when given, else the import's time.
 */
export function planTemplates(
  templates: readonly ImportTemplate[],
  laneNames: ReadonlySet<string>,
  at: string,
): TemplateWrite[] {
  const indexByKey = new Map<string, number>();
  return templates.map((template, index) => {
    const field = `templates[${index}]`;
    const name = cleanName(template.name, `${field}.name`);
    const key = nameKey(name);
    const clash = indexByKey.get(key);
    if (clash !== undefined) {
      throw new InvalidInput(`${field}.name repeats the name of templates[${clash}]`);
    }
    indexByKey.set(key, index);
    const createdAt = template.createdAt ?? at;
    return {
      name,
      nameKey: key,
      description: cleanDescription(template.description, `${field}.description`),
      ticketsJson: JSON.stringify(
        cleanTemplateTickets(template.tickets, laneNames, `${field}.tickets`),
      ),
      createdAt,
      updatedAt: template.updatedAt ?? createdAt,
    };
  });
}
