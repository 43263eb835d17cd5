import { type Static, Type } from "@sinclair/typebox";
import { Literals, Nullable, Timestamp } from "./common.js";

// Asks (docs/api.md, "Asks"): a question an actor puts to the people on a board about one
// ticket. The limits are in limits.ts; domain/asks/asks.ts checks them, one message each.

export const AskStatus = Literals(["open", "answered", "withdrawn"], { $id: "AskStatus" });
export type AskStatus = Static<typeof AskStatus>;

export const AskAnswer = Type.Object(
  {
    text: Nullable(Type.String({ description: "Markdown as sent; null when not given." })),
    textHtml: Nullable(Type.String({ description: "`text` rendered and sanitized." })),
    option: Nullable(Type.String({ description: "The chosen option; null when not given." })),
    by: Type.String({ description: "Who answered." }),
  },
  { $id: "AskAnswer", additionalProperties: false },
);
/** The answer to an ask: `text`, `textHtml` and `option` are each null when not given. */
export type AskAnswer = Static<typeof AskAnswer>;

export const Ask = Type.Object(
  {
    id: Type.Integer(),
    ticketId: Type.Integer(),
    boardId: Type.Integer({ description: "The ticket's board (it follows a moved ticket)." }),
    actor: Type.String({ description: "Who asks." }),
    question: Type.String({ description: "Markdown as sent." }),
    questionHtml: Type.String({ description: "`question` rendered and sanitized like a body." }),
    options: Type.Array(Type.String(), { description: "The choices offered (may be empty)." }),
    blocking: Type.Boolean({ description: "An open blocking ask keeps its ticket out of ready." }),
    status: Type.Ref(AskStatus),
    answer: Type.Union([Type.Ref(AskAnswer), Type.Null()]),
    createdAt: Timestamp,
    answeredAt: Nullable(
      Type.String({ format: "date-time", description: "When it left `open`; null while open." }),
    ),
  },
  { $id: "Ask", additionalProperties: false },
);
export type Ask = Static<typeof Ask>;
export const AskRef = Type.Ref(Ask);

/** An ask in a board export: the Ask without its id, ticket and board (oldest first). */
export const ExportedAsk = Type.Object({
  actor: Type.String(),
  question: Type.String(),
  questionHtml: Type.String(),
  options: Type.Array(Type.String()),
  blocking: Type.Boolean(),
  status: Type.Ref(AskStatus),
  answer: Type.Union([Type.Ref(AskAnswer), Type.Null()]),
  createdAt: Timestamp,
  answeredAt: Nullable(Type.String({ format: "date-time" })),
});
export type ExportedAsk = Static<typeof ExportedAsk>;
