import type { AnswerInput, AskInput, AskStatus, AskT } from "./api-types.js";
import type { TackClient } from "./tack-client.js";

// Asks (docs/api.md, "Asks"): an actor asks the people on a board a question about a ticket and
// waits for the answer. The command line and the MCP server both use these.

/** The longest wait one `GET /api/asks/{id}?wait=` may hold (the API refuses more). */
export const WAIT_PER_REQUEST_SECONDS = 60;

/** Opens an ask on the ticket as the client's actor. */
export function openAsk(
  client: TackClient,
  ticketId: number,
  input: AskInput,
  idempotencyKey?: string,
): Promise<AskT> {
  const body: Record<string, unknown> = { actor: client.actor, question: input.question };
  if (input.options !== undefined) body.options = input.options;
  if (input.blocking !== undefined) body.blocking = input.blocking;
  return client.call<AskT>("POST", `/api/tickets/${ticketId}/asks`, { body, idempotencyKey });
}

/** A ticket's asks, every status, oldest first. */
export async function ticketAsks(client: TackClient, ticketId: number): Promise<AskT[]> {
  return (await client.call<{ asks: AskT[] }>("GET", `/api/tickets/${ticketId}/asks`)).asks;
}

/** The inbox: asks of one status (default open) on every board, or on one. */
export async function inbox(
  client: TackClient,
  query: { status?: AskStatus | "all" | undefined; boardId?: number | undefined } = {},
): Promise<AskT[]> {
  const params = new URLSearchParams();
  if (query.status !== undefined) params.set("status", query.status);
  if (query.boardId !== undefined) params.set("boardId", String(query.boardId));
  const suffix = params.size > 0 ? `?${params}` : "";
  return (await client.call<{ asks: AskT[] }>("GET", `/api/asks${suffix}`)).asks;
}

/**
 * One ask; with `waitSeconds` (1-60) the server holds the answer until the ask leaves `open` or
 * the time has passed.
 */
export function getAsk(
  client: TackClient,
  askId: number,
  waitSeconds?: number,
  signal?: AbortSignal,
): Promise<AskT> {
  if (waitSeconds === undefined) return client.call<AskT>("GET", `/api/asks/${askId}`, { signal });
  return client.call<AskT>("GET", `/api/asks/${askId}?wait=${waitSeconds}`, {
    uncached: true,
    signal,
  });
}

/**
 * Waits up to `totalSeconds` for the ask to leave `open`, one long poll of at most 60 seconds
 * after another, and answers the ask as it is then: answered or withdrawn as soon as that
 * happens, still open when the time is up. 0 reads it once without waiting.
 */
export async function waitForAsk(
  client: TackClient,
  askId: number,
  totalSeconds: number,
  signal?: AbortSignal,
): Promise<AskT> {
  const deadline = Date.now() + totalSeconds * 1000;
  let ask = await getAsk(client, askId, undefined, signal);
  while (ask.status === "open") {
    const left = Math.ceil((deadline - Date.now()) / 1000);
    if (left <= 0 || signal?.aborted) break;
    ask = await getAsk(client, askId, Math.min(left, WAIT_PER_REQUEST_SECONDS), signal);
  }
  return ask;
}

/** Answers an open ask as the client's actor: a text, one of its options, or both. */
export function answerAsk(client: TackClient, askId: number, input: AnswerInput): Promise<AskT> {
  const body: Record<string, unknown> = { by: client.actor };
  if (input.text !== undefined) body.text = input.text;
  if (input.option !== undefined) body.option = input.option;
  return client.call<AskT>("POST", `/api/asks/${askId}/answer`, { body });
}

/** Withdraws the client's actor's own open ask. */
export function withdrawAsk(client: TackClient, askId: number): Promise<AskT> {
  return client.call<AskT>("POST", `/api/asks/${askId}/withdraw`, {
    body: { actor: client.actor },
  });
}

/** One line saying where an ask stands, for people and models alike. */
export function askLine(ask: AskT): string {
  const head = `ask ${ask.id} on #${ask.ticketId}`;
  if (ask.status === "withdrawn") return `${head} was withdrawn`;
  if (ask.status === "open") {
    return `${head} is open${ask.blocking ? " (blocking the ticket)" : ""}: no answer yet`;
  }
  const answer = ask.answer;
  const parts = [answer?.option ? `option "${answer.option}"` : "", answer?.text ?? ""].filter(
    Boolean,
  );
  return `${head} answered by ${answer?.by ?? "?"}: ${parts.join(" — ")}`;
}
