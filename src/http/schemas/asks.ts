import { Type } from "@sinclair/typebox";
import { AskRef, AskStatus } from "../../model/asks.js";
import * as limits from "../../model/limits.js";
import { Id, Nullable, Timestamp } from "./common.js";

export { Ask, AskAnswer, AskRef, AskStatus, ExportedAsk } from "../../model/asks.js";

// Asks (docs/api.md, "Asks"). Trimming, blank text, lengths and repeated options are checked in
// the domain (domain/asks/asks.ts), one message each; the schemas give types and document them.

export const AskList = Type.Object({ asks: Type.Array(AskRef) });

export const AskIdParams = Type.Object({ askId: Id });

const Actor = (who: string) =>
  Type.String({
    description: `${who}: trimmed, 1-${limits.ACTOR_MAX} characters, compared exactly.`,
  });

export const AskCreateBody = Type.Object({
  actor: Actor("Who asks"),
  question: Type.String({
    description: `Markdown, stored as sent; not blank, at most ${limits.grouped(limits.QUESTION_MAX)} characters after trimming.`,
  }),
  options: Type.Optional(
    Type.Array(
      Type.String({
        description: `Stored trimmed; 1-${limits.OPTION_MAX} characters; no two equal.`,
      }),
      {
        maxItems: limits.OPTIONS_MAX,
        description: `0-${limits.OPTIONS_MAX} choices the answer may pick from.`,
      },
    ),
  ),
  blocking: Type.Optional(
    Type.Boolean({ description: "Default true: the ticket is not ready while the ask is open." }),
  ),
});

export const AskAnswerBody = Type.Object({
  by: Actor("Who answers"),
  text: Type.Optional(
    Type.String({
      description:
        `Markdown, stored as sent, at most ${limits.grouped(limits.ANSWER_TEXT_MAX)} characters after trimming; blank counts as ` +
        "not given. At least one of text and option.",
    }),
  ),
  option: Type.Optional(
    Type.String({ description: "Exactly one of the ask's options (400 otherwise)." }),
  ),
});

export const AskWithdrawBody = Type.Object({ actor: Actor("The actor who opened the ask") });

export const AskInboxQuery = Type.Object({
  status: Type.Optional(
    Type.Union(
      [
        Type.Literal("open"),
        Type.Literal("answered"),
        Type.Literal("withdrawn"),
        Type.Literal("all"),
      ],
      { description: "Default `open`." },
    ),
  ),
  boardId: Type.Optional(Id),
});

export const AskWaitQuery = Type.Object({
  wait: Type.Optional(
    Type.Integer({
      minimum: limits.WAIT_MIN_SECONDS,
      maximum: limits.WAIT_MAX_SECONDS,
      description:
        `Seconds (${limits.WAIT_MIN_SECONDS}-${limits.WAIT_MAX_SECONDS}) to hold the answer while the ask is open: it comes when the ask is ` +
        "answered or withdrawn, or when the time has passed (the ask as it is then).",
    }),
  ),
});

/**
 * An ask in an import document: checked like the endpoints' fields by the import (so the 400
 * names the ticket and ask); HTML is never read, it is rendered again.
 */
export const ImportedAsk = Type.Object({
  actor: Type.String(),
  question: Type.String(),
  options: Type.Optional(Type.Array(Type.String(), { maxItems: limits.OPTIONS_MAX })),
  blocking: Type.Optional(Type.Boolean()),
  status: Type.Optional(Type.Ref(AskStatus)),
  answer: Type.Optional(
    Type.Union([
      Type.Object({
        by: Type.String(),
        text: Type.Optional(Nullable(Type.String())),
        option: Type.Optional(Nullable(Type.String())),
      }),
      Type.Null(),
    ]),
  ),
  createdAt: Type.Optional(Timestamp),
  answeredAt: Type.Optional(Nullable(Type.String({ format: "date-time" }))),
});
