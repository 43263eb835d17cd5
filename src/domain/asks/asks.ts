import {
  ACTOR_MAX,
  ANSWER_TEXT_MAX,
  OPTION_MAX,
  OPTIONS_MAX,
  QUESTION_MAX,
  WAIT_MAX_SECONDS,
  WAIT_MIN_SECONDS,
} from "../../model/limits.js";
import type { Stores } from "../../storage/index.js";
import type { ActivityRecorder } from "../activity.js";
import type { BoardService } from "../boards/boards.js";
import { now } from "../clock.js";
import { Conflict, found, InvalidInput, NotFound } from "../errors.js";
import { renderMarkdown } from "../markdown.js";
import type { Ask, AskStatus } from "../model.js";
import { cleanName } from "../names.js";
import type { BoardChanges, Transact } from "../transaction.js";
import type { AskWaiters } from "./ask-waiters.js";

export interface AskInput {
  actor: string;
  question: string;
  options?: string[];
  blocking?: boolean;
}

export interface AnswerInput {
  by: string;
  text?: string;
  option?: string;
}

/** How a waiting caller gets its answer: an error (the ask is gone) or the ask as it is. */
export type AskDelivery = (error: Error | null, ask?: Ask) => void;

/** Code points, as JSON Schema's maxLength counts them (an emoji is one). */
const tooLong = (text: string, max: number) => text.length > max && [...text].length > max;

/** A question: Markdown stored as sent, not blank and at most 10,000 characters once trimmed. */
export function checkQuestion(question: string, field = "question"): void {
  const trimmed = question.trim();
  if (trimmed === "") throw new InvalidInput(`${field} must not be empty`);
  if (tooLong(trimmed, QUESTION_MAX)) {
    throw new InvalidInput(`${field} must be at most ${QUESTION_MAX} characters`);
  }
}

/** Options stored trimmed, each 1-200 characters, no two equal (case counts). */
export function cleanOptions(options: readonly string[], field = "options"): string[] {
  if (options.length > OPTIONS_MAX) {
    throw new InvalidInput(`${field} must have at most ${OPTIONS_MAX} items`);
  }
  const cleaned: string[] = [];
  for (const [index, option] of options.entries()) {
    const value = cleanName(option, `${field}[${index}]`, OPTION_MAX);
    const earlier = cleaned.indexOf(value);
    if (earlier !== -1) {
      throw new InvalidInput(`${field}[${index}] repeats ${field}[${earlier}]`);
    }
    cleaned.push(value);
  }
  return cleaned;
}

/**
 * An answer to an ask with these options: `by` trimmed, `text` stored as sent (blank or null:
 * not given), `option` one of the options exactly, at least one of the two. `prefix` names
 * where the answer is (an import's `tickets[0].asks[1].answer.`), for the messages.
 */
export function cleanAnswer(
  options: readonly string[],
  input: { by: string; text?: string | null; option?: string | null },
  prefix = "",
): { by: string; text: string | null; option: string | null } {
  const by = cleanName(input.by, `${prefix}by`, ACTOR_MAX);
  const trimmed = input.text?.trim() ?? "";
  if (tooLong(trimmed, ANSWER_TEXT_MAX)) {
    throw new InvalidInput(`${prefix}text must be at most ${ANSWER_TEXT_MAX} characters`);
  }
  const text = trimmed === "" ? null : (input.text as string);
  const option = input.option ?? null;
  if (option !== null) {
    if (options.length === 0) {
      throw new InvalidInput(`${prefix}option given but the ask has no options`);
    }
    if (!options.includes(option)) {
      throw new InvalidInput(`${prefix}option is not one of the ask's options`);
    }
  }
  if (text === null && option === null) {
    throw new InvalidInput(`${prefix}text or option is required`);
  }
  return { by, text, option };
}

const notOpen = (status: AskStatus) => new Conflict(`ask is ${status}`);

/**
 * Asks (docs/api.md, "Asks"): an actor's question about one ticket to the people on its board,
 * answered or withdrawn once. Opening, answering and withdrawing each write one activity entry
 * on the ticket and announce the board; the ticket's version follows from the triggers on the
 * asks table (storage/ticket-changes.ts). Callers of `wait` are woken after the commit that
 * takes the ask out of `open`.
 */
export function askService(
  stores: Pick<Stores, "asks" | "tickets">,
  deps: { boards: Pick<BoardService, "require">; activity: ActivityRecorder; waiters: AskWaiters },
  transact: Transact,
) {
  const { asks, tickets } = stores;
  const { boards, activity, waiters } = deps;

  function require(askId: number): Ask {
    return found(asks.get(askId), "ask");
  }

  function requireTicket(ticketId: number) {
    return found(tickets.row(ticketId), "ticket");
  }

  /** An open ask, or 409 naming its status (checked before anything else of a request). */
  function requireOpen(askId: number): Ask {
    const ask = require(askId);
    if (ask.status !== "open") throw notOpen(ask.status);
    return ask;
  }

  /** Waiters hear of the change once its commit is done and the request's own work returned. */
  function wakeSoon(askId: number): void {
    setImmediate(() => waiters.wake(askId));
  }

  /**
   * Writes one ask's leaving `open` (answer or withdrawal). The status was checked before the
   * request's other checks; the write checks it again, so of two racing requests the second
   * gets the 409 of the state the first left.
   */
  function leaveOpen(
    askId: number,
    write: () => boolean,
    entry: { action: string; message: string; details: Record<string, unknown> },
  ): Ask {
    const ask = transact((changes) => {
      if (!write()) throw notOpen(require(askId).status);
      const left = require(askId);
      activity.record({ boardId: left.boardId, ticketId: left.ticketId, ...entry });
      changes.touched(left.boardId);
      return left;
    });
    wakeSoon(askId);
    return ask;
  }

  return {
    require,

    /** Opens an ask on a ticket that is neither resolved nor archived. */
    open(ticketId: number, input: AskInput): Ask {
      const actor = cleanName(input.actor, "actor", ACTOR_MAX);
      checkQuestion(input.question);
      const options = cleanOptions(input.options ?? []);
      const questionHtml = renderMarkdown(input.question);
      return transact((changes) => {
        const ticket = requireTicket(ticketId);
        if (ticket.isResolved) throw new Conflict("ticket is resolved");
        if (ticket.isArchived) throw new Conflict("ticket is archived");
        const id = asks.insert({
          ticketId,
          actor,
          question: input.question,
          questionHtml,
          options,
          blocking: input.blocking ?? true,
          status: "open",
          answer: null,
          createdAt: now(),
          answeredAt: null,
        });
        activity.record({
          boardId: ticket.boardId,
          ticketId,
          action: "ask_opened",
          message: `Question asked by ${actor}`,
          details: { askId: id, actor },
        });
        changes.touched(ticket.boardId);
        return require(id);
      });
    },

    /** A ticket's asks of every status, oldest first. */
    listForTicket(ticketId: number): Ask[] {
      requireTicket(ticketId);
      return asks.listByTicket(ticketId);
    },

    /** The inbox: `open` by default, of every board unless one is named; oldest first. */
    inbox(filter: { status?: AskStatus | "all"; boardId?: number }): Ask[] {
      if (filter.boardId !== undefined) boards.require(filter.boardId);
      return asks.list({ status: filter.status ?? "open", boardId: filter.boardId });
    },

    answer(askId: number, input: AnswerInput): Ask {
      const ask = requireOpen(askId);
      const { by, text, option } = cleanAnswer(ask.options, input);
      const answer = {
        text,
        textHtml: text === null ? null : renderMarkdown(text),
        option,
        by,
        at: now(),
      };
      return leaveOpen(askId, () => asks.answer(askId, answer), {
        action: "ask_answered",
        message: `Question answered by ${by}`,
        details: { askId, by, option },
      });
    },

    /** Only the actor who opened the ask may withdraw it. */
    withdraw(askId: number, input: { actor: string }): Ask {
      const ask = requireOpen(askId);
      const actor = cleanName(input.actor, "actor", ACTOR_MAX);
      if (actor !== ask.actor) throw new Conflict(`ask was opened by ${ask.actor}`);
      return leaveOpen(askId, () => asks.withdraw(askId, now()), {
        action: "ask_withdrawn",
        message: `Question withdrawn by ${actor}`,
        details: { askId },
      });
    },

    /**
     * The long poll: `deliver` gets the ask at once when it is not open (synchronously, before
     * this returns), else when it leaves `open` or after `seconds`, whichever comes first.
     * Returns the function that stops waiting without delivering (the caller went away), or
     * undefined when it delivered already. Throws NotFound for an unknown ask.
     */
    wait(askId: number, seconds: number, deliver: AskDelivery): (() => void) | undefined {
      if (seconds < WAIT_MIN_SECONDS || seconds > WAIT_MAX_SECONDS) {
        throw new InvalidInput(
          `wait must be between ${WAIT_MIN_SECONDS} and ${WAIT_MAX_SECONDS} seconds`,
        );
      }
      const ask = require(askId);
      if (ask.status !== "open") {
        deliver(null, ask);
        return undefined;
      }
      let done = false;
      const stop = (): boolean => {
        if (done) return false;
        done = true;
        clearTimeout(timer);
        remove();
        return true;
      };
      // Both run from a timer or after a commit, outside any request's handler: a failure to
      // read goes to this caller's answer (a 500), never up the stack, where it would end the
      // process.
      const read = (): { ask?: Ask; error?: Error } => {
        try {
          return { ask: asks.get(askId) };
        } catch (error) {
          return { error: error as Error };
        }
      };
      const send = ({ ask: current, error }: { ask?: Ask; error?: Error }) => {
        if (error) deliver(error);
        // A ticket deleted meanwhile took its asks along (404).
        else if (current) deliver(null, current);
        else deliver(new NotFound("ask not found"));
      };
      const waiter = {
        /** The time is up, or the ask left open: the ask as it is now. */
        wake(): void {
          if (stop()) send(read());
        },
        /** Its ticket changed: only an ask that left `open` (or is gone) ends the wait. */
        check(): void {
          if (done) return;
          const now = read();
          if (now.ask?.status === "open") return;
          if (stop()) send(now);
        },
      };
      const timer = setTimeout(() => waiter.wake(), seconds * 1000);
      const remove = waiters.add(askId, ask.ticketId, waiter);
      return () => {
        stop();
      };
    },

    /** Answers every waiting caller with its ask as it is (the server is closing). */
    releaseWaiters(): void {
      waiters.wakeAll();
    },

    /** How many callers wait, on one ask or on all. */
    waiting: (askId?: number): number => waiters.count(askId),
  };
}

export type AskService = ReturnType<typeof askService>;

/**
 * After every commit: on the next turn, the waiters of asks whose ticket the commit deleted check
 * their ask again (it is gone with its ticket: those callers get their 404 at once). Costs
 * nothing while nobody waits.
 */
export function recheckWaitersAfter(
  waiters: AskWaiters,
  tickets: Pick<Stores["tickets"], "row">,
): (changes: BoardChanges) => void {
  const isGone = (ticketId: number): boolean => {
    try {
      return tickets.row(ticketId) === undefined;
    } catch {
      // Off any request: a failed read leaves the waiters to their time.
      return false;
    }
  };
  return (changes) => {
    if (waiters.count() === 0) return;
    const ticketIds = new Set<number>();
    for (const ids of changes.changedTickets.values()) for (const id of ids) ticketIds.add(id);
    if (ticketIds.size > 0) setImmediate(() => waiters.ticketsChanged(ticketIds, isGone));
  };
}
