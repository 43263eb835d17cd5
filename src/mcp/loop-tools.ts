import { Type } from "@sinclair/typebox";
import type { AskT } from "../client/api-types.js";
import { askLine, getAsk, openAsk, waitForAsk } from "../client/asks.js";
import { chooseBoard } from "../client/board-choice.js";
import { findTemplate, instantiateTemplate, listTemplates } from "../client/templates.js";
import { findLane } from "../client/ticket-operations.js";
import { OPTIONS_MAX } from "../model/limits.js";
import { AskOutput, CheckedOutput, TemplateOutput } from "./output-schemas.js";
import { TicketId } from "./tool-inputs.js";
import { defineTool, READ, type TackTool, write } from "./tool-kit.js";

// The developer in the loop (docs/api.md: "Asks", "Checklists", "Templates"): ask a person and
// wait for the answer, tick a checklist item; and, opt-in (`templates`), make a template's tickets.

/** The longest an ask_human or get_ask call waits in all (a host's tool call must end). */
export const MAX_WAIT_SECONDS = 600;
/** Below the 60-second request timeout several MCP clients use by default. */
export const DEFAULT_ASK_WAIT_SECONDS = 50;

const WaitSeconds = (fallback: number) =>
  Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_WAIT_SECONDS,
      description: `Seconds to wait for the answer, default ${fallback}.`,
    }),
  );

/** The ask for a model: without the rendered HTML, which repeats the Markdown. */
function askForModel(ask: AskT): Record<string, unknown> {
  const { questionHtml: _html, answer, ...rest } = ask;
  if (!answer) return { ...rest, answer: null };
  const { textHtml: _textHtml, ...plain } = answer;
  return { ...rest, answer: plain };
}

function askSummary(ask: AskT, waited: number): string {
  if (ask.status !== "open") return askLine(ask);
  return `${askLine(ask)} after ${waited} s. Do other work and call get_ask {"askId": ${ask.id}, "waitSeconds": ${MAX_WAIT_SECONDS}} later${ask.blocking ? "; the ticket stays out of the ready queue meanwhile" : ""}.`;
}

export const askTools: TackTool[] = [
  defineTool({
    name: "ask_human",
    title: "Ask a person",
    description:
      "Asks the people on the board a question about a ticket and waits for the answer. options: choices to offer. blocking (default true) keeps the ticket out of the ready queue until answered. If the wait ends first the ask stays open: check later with get_ask. Returns the ask (status, answer).",
    input: Type.Object({
      ticketId: TicketId,
      question: Type.String({ minLength: 1, description: "Markdown." }),
      options: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: OPTIONS_MAX })),
      blocking: Type.Optional(Type.Boolean()),
      waitSeconds: WaitSeconds(DEFAULT_ASK_WAIT_SECONDS),
    }),
    output: AskOutput,
    annotations: write(false),
    async run(args, context) {
      const { client } = context;
      const opened = await openAsk(client, args.ticketId, {
        question: args.question,
        options: args.options,
        blocking: args.blocking,
      });
      const waited = args.waitSeconds ?? DEFAULT_ASK_WAIT_SECONDS;
      const ask = await waitForAsk(client, opened.id, waited, context.signal);
      return { summary: askSummary(ask, waited), data: askForModel(ask) };
    },
  }),
  defineTool({
    name: "get_ask",
    title: "Check an ask",
    description:
      "Reads an ask (from ask_human); with waitSeconds, waits that long for it to be answered. Returns the ask (status open, answered or withdrawn; answer).",
    input: Type.Object({
      askId: Type.Integer({ minimum: 1 }),
      waitSeconds: WaitSeconds(0),
    }),
    output: AskOutput,
    annotations: READ,
    async run(args, context) {
      const waited = args.waitSeconds ?? 0;
      const ask =
        waited === 0
          ? await getAsk(context.client, args.askId)
          : await waitForAsk(context.client, args.askId, waited, context.signal);
      return { summary: askSummary(ask, waited), data: askForModel(ask) };
    },
  }),
];

export const checklistTools: TackTool[] = [
  defineTool({
    name: "check_item",
    title: "Tick a checklist item",
    description:
      "Ticks (or with checked false, unticks) one item of a ticket's checklist: the task list items (- [ ] ...) of its body, index 0-based in document order. Changes nothing else in the body. Returns the checklist's counts.",
    input: Type.Object({
      ticketId: TicketId,
      index: Type.Integer({ minimum: 0 }),
      checked: Type.Optional(Type.Boolean()),
    }),
    output: CheckedOutput,
    annotations: write(true),
    async run(args, context) {
      const checked = args.checked ?? true;
      const ticket = await context.client.setChecklistItem(args.ticketId, args.index, checked);
      const checklist = ticket.checklist ?? { done: 0, total: 0 };
      return {
        summary: `#${ticket.id}: item ${args.index} ${checked ? "checked" : "unchecked"}; ${checklist.done}/${checklist.total} done`,
        data: {
          ticketId: ticket.id,
          index: args.index,
          checked,
          checklist,
          version: ticket.version ?? null,
        },
      };
    },
  }),
];

export const templateTools: TackTool[] = [
  defineTool({
    name: "instantiate_template",
    title: "Make a template's tickets",
    description:
      "Makes the tickets of a board's template in one step, with {{variable}} values filled in, parents and blockers wired. template: id or name; without it, lists the board's templates and their variables. Returns the new tickets (key, id, title) or the list.",
    input: Type.Object({
      boardId: Type.Optional(Type.Integer({ minimum: 1 })),
      template: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.String()])),
      values: Type.Optional(
        Type.Record(Type.String(), Type.String(), { description: "Variable values by name." }),
      ),
      lane: Type.Optional(
        Type.Union([Type.Integer({ minimum: 1 }), Type.String()], {
          description: "Lane for tickets whose template names none.",
        }),
      ),
      idempotencyKey: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    }),
    output: TemplateOutput,
    annotations: write(false),
    async run(args, context) {
      const { client } = context;
      const boardId = await chooseBoard(client, args.boardId ?? context.boardId);
      if (args.template === undefined) {
        const templates = await listTemplates(client, boardId);
        return {
          summary: `${templates.length} templates on board ${boardId}`,
          data: {
            templates: templates.map((one) => ({
              id: one.id,
              name: one.name,
              description: one.description,
              variables: one.variables,
              tickets: one.tickets.length,
            })),
          },
        };
      }
      const template = await findTemplate(client, boardId, args.template);
      const laneId =
        args.lane === undefined
          ? undefined
          : findLane(await client.listLanes(boardId), args.lane).id;
      const tickets = await instantiateTemplate(
        client,
        template.id,
        { values: args.values, laneId },
        args.idempotencyKey,
      );
      const made = tickets.map((ticket, index) => ({
        key: template.tickets[index]?.key ?? String(index),
        id: ticket.id,
        title: ticket.title,
      }));
      return {
        summary: `Made ${made.length} tickets from "${template.name}": ${made.map((one) => `#${one.id}`).join(", ")}`,
        data: { templateId: template.id, tickets: made },
      };
    },
  }),
];
