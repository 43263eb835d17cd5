import { Type } from "@sinclair/typebox";
import { BODY_MAX } from "../../domain/names.js";
import {
  TEMPLATE_DESCRIPTION_MAX,
  TEMPLATE_TICKETS_MAX,
} from "../../domain/templates/template-rules.js";
import { Id, Nullable, Timestamp } from "./common.js";
import { Priority } from "./tickets.js";

// Templates (docs/api.md, "Templates"). Strings are plain here: trimming, lengths after
// trimming, keys and lanes are checked by domain/templates/template-rules.ts, which names the
// ticket (`tickets[2].parentKey`).

const TemplateTicketFields = {
  key: Type.String({ description: "1-50 characters, unique in the template." }),
  title: Type.String({ description: "A ticket title; may contain {{variables}}." }),
  bodyMarkdown: Type.String({ maxLength: BODY_MAX, description: "May contain {{variables}}." }),
  laneName: Nullable(
    Type.String({ description: "A lane of the board (exact name); null: the default lane." }),
  ),
  priority: Priority,
  tagNames: Type.Array(Type.String(), { maxItems: 1000 }),
  parentKey: Nullable(Type.String({ description: "Another key of the template." })),
  blockerKeys: Type.Array(Type.String(), { maxItems: TEMPLATE_TICKETS_MAX }),
};

export const TemplateTicket = Type.Object(TemplateTicketFields, {
  $id: "TemplateTicket",
  description: "One ticket of a template, defaults filled.",
});

/** What a template holds besides its id and board (the export carries these). */
const TemplateContent = {
  name: Type.String(),
  description: Type.String(),
  variables: Type.Array(Type.String(), {
    description: "The distinct {{names}} of the tickets' titles and bodies, by code point.",
  }),
  tickets: Type.Array(Type.Ref(TemplateTicket)),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const Template = Type.Object(
  { id: Id, boardId: Id, ...TemplateContent },
  { $id: "Template" },
);

/** A template in a board export: without its id and board. */
export const ExportedTemplate = Type.Object(TemplateContent);

export const TemplateRef = Type.Ref(Template);

/** A ticket as a request sends it: key and title required, the rest defaulted. */
export const TemplateTicketInput = Type.Object({
  key: TemplateTicketFields.key,
  title: TemplateTicketFields.title,
  bodyMarkdown: Type.Optional(TemplateTicketFields.bodyMarkdown),
  laneName: Type.Optional(TemplateTicketFields.laneName),
  priority: Type.Optional(Priority),
  tagNames: Type.Optional(TemplateTicketFields.tagNames),
  parentKey: Type.Optional(TemplateTicketFields.parentKey),
  blockerKeys: Type.Optional(TemplateTicketFields.blockerKeys),
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
  name: Type.String({ description: "1-200 characters, unique per board ignoring case." }),
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
