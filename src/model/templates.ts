import { type Static, Type } from "@sinclair/typebox";
import { Id, Nullable, Timestamp } from "./common.js";
import { BODY_MAX, TEMPLATE_KEY_MAX, TEMPLATE_TICKETS_MAX } from "./limits.js";
import { Priority } from "./tickets.js";

// Templates (docs/api.md, "Templates"). Strings are plain here: trimming, lengths after
// trimming, keys and lanes are checked by domain/templates/template-rules.ts, which names the
// ticket (`tickets[2].parentKey`).

/** One ticket of a template; a request may leave out all but key and title. */
export const templateTicketFields = {
  key: Type.String({ description: `1-${TEMPLATE_KEY_MAX} characters, unique in the template.` }),
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

export const TemplateTicket = Type.Object(templateTicketFields, {
  $id: "TemplateTicket",
  description: "One ticket of a template, defaults filled.",
});
/** One ticket of a template as stored and answered: every default filled. */
export type TemplateTicket = Static<typeof TemplateTicket>;

/** What a template holds besides its id and board (the export carries these). */
const templateContent = {
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
  { id: Id, boardId: Id, ...templateContent },
  { $id: "Template" },
);
export type Template = Static<typeof Template>;
export const TemplateRef = Type.Ref(Template);

/** A template in a board export: without its id and board. */
export const ExportedTemplate = Type.Object(templateContent);
export type ExportedTemplate = Static<typeof ExportedTemplate>;
