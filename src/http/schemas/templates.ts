import { Type } from "@sinclair/typebox";
import { NAME_MAX, TEMPLATE_DESCRIPTION_MAX, TEMPLATE_TICKETS_MAX } from "../../model/limits.js";
import { templateTicketFields } from "../../model/templates.js";
import { Priority } from "../../model/tickets.js";
import { Timestamp } from "./common.js";

export {
  ExportedTemplate,
  Template,
  TemplateRef,
  TemplateTicket,
} from "../../model/templates.js";

// Template requests (docs/api.md, "Templates"); Template itself is the model's
// (src/model/templates.ts). Strings are plain here: trimming, lengths after trimming, keys and
// lanes are checked by domain/templates/template-rules.ts, which names the ticket
// (`tickets[2].parentKey`).

/** A ticket as a request sends it: key and title required, the rest defaulted. */
export const TemplateTicketInput = Type.Object({
  key: templateTicketFields.key,
  title: templateTicketFields.title,
  bodyMarkdown: Type.Optional(templateTicketFields.bodyMarkdown),
  laneName: Type.Optional(templateTicketFields.laneName),
  priority: Type.Optional(Priority),
  tagNames: Type.Optional(templateTicketFields.tagNames),
  parentKey: Type.Optional(templateTicketFields.parentKey),
  blockerKeys: Type.Optional(templateTicketFields.blockerKeys),
});

const TemplateTickets = Type.Array(TemplateTicketInput, {
  minItems: 1,
  maxItems: TEMPLATE_TICKETS_MAX,
});

const Description = Type.String({
  maxLength: TEMPLATE_DESCRIPTION_MAX,
  description: "Markdown, stored as sent.",
});

export const TemplateCreateBody = Type.Object({
  name: Type.String({ description: `1-${NAME_MAX} characters, unique per board ignoring case.` }),
  description: Type.Optional(Description),
  tickets: TemplateTickets,
});

export const TemplatePatchBody = Type.Object(
  {
    name: Type.Optional(TemplateCreateBody.properties.name),
    description: Type.Optional(Description),
    tickets: Type.Optional(TemplateTickets),
  },
  { description: "The fields sent replace the template's; at least one." },
);

export const TemplateInstantiateBody = Type.Object({
  values: Type.Optional(
    Type.Record(Type.String(), Type.String(), {
      description: "A string per variable of the template, and none for other names.",
    }),
  ),
  laneId: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: "A lane of the board for tickets without laneName (default: the first lane).",
    }),
  ),
});

/** A template in a board import: as created, with its times kept when given. */
export const ImportedTemplate = Type.Object({
  name: TemplateCreateBody.properties.name,
  description: Type.Optional(Description),
  tickets: TemplateTickets,
  createdAt: Type.Optional(Timestamp),
  updatedAt: Type.Optional(Timestamp),
});
