import type { ExportedAsk } from "../../model/asks.js";
import { ACTOR_MAX } from "../../model/limits.js";
import type { NewAsk } from "../../storage/asks.js";
import { InvalidInput } from "../errors.js";
import type { Ask, AskStatus } from "../model.js";
import { cleanName } from "../names.js";
import { checkQuestion, cleanAnswer, cleanOptions } from "./asks.js";

/**
 * Asks in a board's export and import (docs/export-format.md): each ticket carries its asks,
 * oldest first, without their ids, ticket and board (ExportedAsk, src/model/asks.ts); an import
 * checks them like the endpoints do and recreates them with new ids, times, status and answer
 * kept.
 */
export function exportedAsk(ask: Ask): ExportedAsk {
  return {
    actor: ask.actor,
    question: ask.question,
    questionHtml: ask.questionHtml,
    options: ask.options,
    blocking: ask.blocking,
    status: ask.status,
    answer: ask.answer,
    createdAt: ask.createdAt,
    answeredAt: ask.answeredAt,
  };
}

/** An ask as an import document gives it (HTML is never read: it is rendered again). */
export interface ImportAsk {
  actor: string;
  question: string;
  options?: string[];
  blocking?: boolean;
  status?: AskStatus;
  answer?: { by: string; text?: string | null; option?: string | null } | null;
  createdAt?: string;
  answeredAt?: string | null;
}

/** A checked ask waiting for its ticket's new id; the HTML is filled in by the render pass. */
export type PlannedAsk = Omit<NewAsk, "ticketId">;

/**
 * Checks one imported ask (`field` names it, `tickets[0].asks[1]`); the rules of the endpoints
 * apply, and the status and answer must agree: an answered ask has an answer, the others none,
 * and only an ask that left `open` has `answeredAt` (the import's time when it is absent).
 */
export function planImportedAsk(ask: ImportAsk, field: string, at: string): PlannedAsk {
  const actor = cleanName(ask.actor, `${field}.actor`, ACTOR_MAX);
  checkQuestion(ask.question, `${field}.question`);
  const options = cleanOptions(ask.options ?? [], `${field}.options`);
  const status = ask.status ?? "open";
  const given = ask.answer ?? null;
  if (status === "answered" && given === null) {
    throw new InvalidInput(`${field}.answer is required when status is answered`);
  }
  if (status !== "answered" && given !== null) {
    throw new InvalidInput(`${field}.answer must be null unless status is answered`);
  }
  if (status === "open" && ask.answeredAt != null) {
    throw new InvalidInput(`${field}.answeredAt must be null while status is open`);
  }
  const answer = given && cleanAnswer(options, given, `${field}.answer.`);
  return {
    actor,
    question: ask.question,
    questionHtml: "",
    options,
    blocking: ask.blocking ?? true,
    status,
    answer: answer && { ...answer, textHtml: null },
    createdAt: ask.createdAt ?? at,
    answeredAt: status === "open" ? null : (ask.answeredAt ?? at),
  };
}
