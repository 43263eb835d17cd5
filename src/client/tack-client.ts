import type {
  ActivityEntry,
  BoardDetailT,
  BoardInsightsT,
  BoardShellT,
  BoardT,
  CommentT,
  LaneT,
  RemoteDiagnostic,
  RemotePreview,
  TagT,
  Ticket,
  TicketCreateInput,
  TicketEventInput,
  TicketEventT,
  TicketListFilter,
  TicketPatchInput,
  TicketSummary,
  TrashItemT,
  TrashRestoredT,
} from "./api-types.js";
import { ApiError, errorFromResponse, unreachable } from "./errors.js";
import { streamedRequest } from "./streamed-upload.js";

export const DEFAULT_URL = "http://127.0.0.1:3000";

export interface ClientOptions {
  /** Base URL of a running tack, e.g. http://127.0.0.1:3000. */
  url: string;
  /** Who claims and releases tickets (`actor`, docs/api.md, "Coordination for agents"). */
  actor: string;
  /**
   * An access token (docs/api.md, "Access tokens"), sent as `Authorization: Bearer`; none on
   * loopback by default.
   */
  token?: string | undefined;
  /** How requests travel; global fetch unless given (`/mcp` answers through Fastify's inject). */
  fetch?: typeof fetch;
  /**
   * Answers of GETs kept with their ETag: asked again with `If-None-Match`, a 304 hands back the
   * kept body, so a list that did not change is neither sent nor parsed again (`/mcp` uses one).
   */
  answers?: KeptAnswers;
}

/** Parsed GET answers by path, each valid for one ETag (mcp/kept-answers.ts is one). */
export interface KeptAnswers {
  get(path: string): { etag: string; body: unknown } | undefined;
  /** Keeps the body if it fits (`size`: its length as text); answers the body to hand out. */
  set(path: string, etag: string, body: unknown, size: number): unknown;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when there is none or it is not JSON. */
  body: unknown;
}

export interface RequestOptions {
  body?: unknown;
  /**
   * Sent as is instead of JSON.stringify(body): board import of a file, as text or as the
   * file's chunks (sent as they are read, never whole in memory).
   */
  rawBody?: string | AsyncIterable<Uint8Array>;
  headers?: Record<string, string>;
  idempotencyKey?: string | undefined;
  ifMatch?: string | undefined;
  /** Called as the body goes out, with the bytes sent so far (board import's progress bar). */
  onUpload?: ((sent: number) => void) | undefined;
  /** Ends the request early (an MCP call the client cancelled). */
  signal?: AbortSignal | undefined;
  /**
   * Never answered from kept answers nor sent with `If-None-Match`: a long poll
   * (`GET /api/asks/{id}?wait=`) must wait for a change, not be told at once that none happened.
   */
  uncached?: boolean;
}

export type BulkAction =
  | { kind: "complete"; isResolved: boolean }
  | { kind: "archive"; isArchived: boolean }
  | { kind: "transition"; laneName: string }
  | { kind: "move"; boardId: number; laneId: number };

export interface ClaimOptions {
  leaseSeconds?: number | undefined;
  ifMatch?: string | undefined;
}

export interface InsightsParams {
  from?: string | undefined;
  to?: string | undefined;
  bucket?: "hour" | "day" | "week" | undefined;
}

export interface ClaimNextFilter {
  leaseSeconds?: number | undefined;
  laneId?: number | undefined;
  tag?: string | undefined;
  priority?: number | undefined;
}

/** A typed client of tack's HTTP API; every failure is an ApiError. */
export class TackClient {
  readonly url: string;
  readonly actor: string;
  readonly #token: string | undefined;
  private readonly send: typeof fetch;
  private readonly answers: KeptAnswers | undefined;

  constructor(options: ClientOptions) {
    this.url = options.url.replace(/\/+$/, "");
    this.actor = options.actor;
    this.send = options.fetch ?? ((input, init) => fetch(input, init));
    this.answers = options.answers;
    // A private field: the token never shows in a logged or serialized client.
    this.#token = options.token?.trim() || undefined;
  }

  /** The Authorization header to send, if a token was given. */
  authHeaders(): Record<string, string> {
    return this.#token === undefined ? {} : { authorization: `Bearer ${this.#token}` };
  }

  /**
   * Any request, its answer not yet read: for answers read as they arrive (a board's export
   * and import, src/client/board-transfer.ts).
   */
  async open(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...this.authHeaders(), ...options.headers };
    let body: string | AsyncIterable<Uint8Array> | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers["content-type"] ??= "application/json";
    if (options.idempotencyKey) headers["idempotency-key"] = options.idempotencyKey;
    if (options.ifMatch) headers["if-match"] = options.ifMatch;
    let response: Response;
    try {
      const init: RequestInit & { duplex?: "half" } = { method, headers };
      if (options.signal) init.signal = options.signal;
      if (typeof body === "string") init.body = body;
      if (typeof body === "string" && options.onUpload) {
        init.body = uploadStream(body, options.onUpload);
        init.duplex = "half";
      }
      response =
        body === undefined || typeof body === "string"
          ? await this.send(this.url + path, init)
          : await streamedRequest(this.url + path, {
              method,
              headers,
              body,
              onUpload: options.onUpload ?? (() => {}),
              signal: options.signal,
            });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw unreachable(this.url, error);
    }
    return response;
  }

  /** Any request; answers whatever status the server gives (the `tack api` escape hatch). */
  async raw(method: string, path: string, options: RequestOptions = {}): Promise<RawResponse> {
    const response = await this.open(method, path, options);
    const text = await response.text();
    let parsed: unknown;
    if ((response.headers.get("content-type") ?? "").includes("json") && text !== "") {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  }

  /** A request that must succeed: a 4xx/5xx becomes an ApiError carrying the server's sentence. */
  async call<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const answers = method === "GET" && !options.uncached ? this.answers : undefined;
    const kept = answers?.get(path);
    const response = await this.raw(
      method,
      path,
      kept ? { ...options, headers: { ...options.headers, "if-none-match": kept.etag } } : options,
    );
    if (kept && response.status === 304) return kept.body as T;
    if (response.status >= 400) {
      const message =
        (response.body as { error?: string } | undefined)?.error ?? `HTTP ${response.status}`;
      throw errorFromResponse(response.status, message);
    }
    const etag = response.headers.get("etag");
    if (answers && etag && response.status === 200 && response.body !== undefined) {
      return answers.set(path, etag, response.body, response.text.length) as T;
    }
    return response.body as T;
  }

  // Service
  meta() {
    return this.call<{ name: string; version: string; remoteProviders: unknown[] }>(
      "GET",
      "/api/meta",
    );
  }

  // Trash (docs/api.md, "The trash")
  async listTrash(boardId?: number): Promise<TrashItemT[]> {
    const query = boardId === undefined ? "" : `?boardId=${boardId}`;
    return (await this.call<{ items: TrashItemT[] }>("GET", `/api/trash${query}`)).items;
  }
  /** The newest trash entry holding this object (just deleted), if the server kept one. */
  async trashEntryOf(kind: TrashItemT["kind"], objectId: number, boardId?: number) {
    const items = await this.listTrash(boardId);
    return items.find((item) => item.kind === kind && item.objectId === objectId);
  }
  restoreFromTrash(trashId: number) {
    return this.call<TrashRestoredT>("POST", `/api/trash/${trashId}/restore`);
  }
  eraseFromTrash(trashId: number) {
    return this.call<void>("DELETE", `/api/trash/${trashId}`);
  }

  // Boards
  async listBoards(): Promise<BoardT[]> {
    return (await this.call<{ boards: BoardT[] }>("GET", "/api/boards")).boards;
  }
  createBoard(name: string, laneNames?: string[], idempotencyKey?: string) {
    return this.call<BoardDetailT>("POST", "/api/boards", {
      body: laneNames ? { name, laneNames } : { name },
      idempotencyKey,
    });
  }
  getBoard(boardId: number) {
    return this.call<BoardShellT>("GET", `/api/boards/${boardId}`);
  }
  renameBoard(boardId: number, name: string) {
    return this.call<BoardT>("PATCH", `/api/boards/${boardId}`, { body: { name } });
  }
  deleteBoard(boardId: number) {
    return this.call<void>("DELETE", `/api/boards/${boardId}`);
  }
  /**
   * The export document as the server wrote it (kept as text so a file round-trips exactly);
   * `exportBoard` in board-transfer.ts reads it as it arrives instead.
   */
  async exportBoard(boardId: number): Promise<string> {
    const response = await this.raw("GET", `/api/boards/${boardId}/export`);
    if (response.status >= 400) {
      throw errorFromResponse(response.status, (response.body as { error?: string })?.error ?? "");
    }
    return response.text;
  }

  // Lanes
  async listLanes(boardId: number): Promise<LaneT[]> {
    return (await this.call<{ lanes: LaneT[] }>("GET", `/api/boards/${boardId}/lanes`)).lanes;
  }
  createLane(boardId: number, name: string, wipLimit?: number | null) {
    const body = wipLimit === undefined ? { name } : { name, wipLimit };
    return this.call<LaneT>("POST", `/api/boards/${boardId}/lanes`, { body });
  }
  renameLane(laneId: number, name: string) {
    return this.call<LaneT>("PATCH", `/api/lanes/${laneId}`, { body: { name } });
  }
  /** Sets a lane's WIP limit; null clears it (docs/api.md, "Lanes"). */
  setWipLimit(laneId: number, wipLimit: number | null) {
    return this.call<LaneT>("PATCH", `/api/lanes/${laneId}`, { body: { wipLimit } });
  }
  async reorderLanes(boardId: number, laneIds: number[]): Promise<LaneT[]> {
    return (
      await this.call<{ lanes: LaneT[] }>("POST", `/api/boards/${boardId}/lanes/reorder`, {
        body: { laneIds },
      })
    ).lanes;
  }

  /**
   * Flow figures of a board (docs/api.md, "Insights"); absent fields take the server's defaults.
   */
  insights(boardId: number, query: InsightsParams = {}) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) params.set(key, value);
    }
    const suffix = params.size > 0 ? `?${params}` : "";
    return this.call<BoardInsightsT>("GET", `/api/boards/${boardId}/insights${suffix}`);
  }

  // Tags
  async listTags(boardId: number): Promise<TagT[]> {
    return (await this.call<{ tags: TagT[] }>("GET", `/api/boards/${boardId}/tags`)).tags;
  }
  createTag(boardId: number, name: string, color?: string) {
    return this.call<TagT>("POST", `/api/boards/${boardId}/tags`, {
      body: color === undefined ? { name } : { name, color },
    });
  }

  // Tickets
  async listTickets(boardId: number, filter: TicketListFilter = {}): Promise<TicketSummary[]> {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(filter)) {
      if (value !== undefined) query.set(key, String(value));
    }
    const suffix = query.size > 0 ? `?${query}` : "";
    return (
      await this.call<{ tickets: TicketSummary[] }>(
        "GET",
        `/api/boards/${boardId}/tickets${suffix}`,
      )
    ).tickets;
  }
  getTicket(ticketId: number) {
    return this.call<Ticket>("GET", `/api/tickets/${ticketId}`);
  }
  /** The ticket with the ETag that `If-Match` needs for a conditional write. */
  async getTicketWithTag(ticketId: number): Promise<{ ticket: Ticket; etag: string | null }> {
    const response = await this.raw("GET", `/api/tickets/${ticketId}`);
    if (response.status >= 400) {
      throw errorFromResponse(response.status, (response.body as { error?: string })?.error ?? "");
    }
    return { ticket: response.body as Ticket, etag: response.headers.get("etag") };
  }
  createTicket(boardId: number, input: TicketCreateInput, idempotencyKey?: string) {
    return this.call<Ticket>("POST", `/api/boards/${boardId}/tickets`, {
      body: input,
      idempotencyKey,
    });
  }
  updateTicket(ticketId: number, patch: TicketPatchInput, ifMatch?: string) {
    return this.call<Ticket>("PATCH", `/api/tickets/${ticketId}`, { body: patch, ifMatch });
  }
  deleteTicket(ticketId: number) {
    return this.call<void>("DELETE", `/api/tickets/${ticketId}`);
  }
  transitionTicket(ticketId: number, laneName: string, isResolved?: boolean) {
    return this.call<Ticket>("PATCH", `/api/tickets/${ticketId}/transition`, {
      body: isResolved === undefined ? { laneName } : { laneName, isResolved },
    });
  }
  async bulk(boardId: number, ticketIds: number[], action: BulkAction): Promise<TicketSummary[]> {
    const { kind, ...rest } = action;
    const path = `/api/boards/${boardId}/tickets/bulk-${kind}`;
    return (
      await this.call<{ tickets: TicketSummary[] }>("POST", path, { body: { ticketIds, ...rest } })
    ).tickets;
  }

  // Coordination (docs/api.md, "Coordination for agents")
  claim(ticketId: number, options: ClaimOptions = {}) {
    const body: Record<string, unknown> = { actor: this.actor };
    if (options.leaseSeconds !== undefined) body.leaseSeconds = options.leaseSeconds;
    return this.call<Ticket>("POST", `/api/tickets/${ticketId}/claim`, {
      body,
      ifMatch: options.ifMatch,
    });
  }
  release(ticketId: number) {
    return this.call<Ticket>("POST", `/api/tickets/${ticketId}/release`, {
      body: { actor: this.actor },
    });
  }
  /** The next ready ticket, claimed; null when none is ready (204). */
  async claimNext(boardId: number, filter: ClaimNextFilter = {}): Promise<Ticket | null> {
    const body: Record<string, unknown> = { actor: this.actor };
    for (const [key, value] of Object.entries(filter)) if (value !== undefined) body[key] = value;
    const response = await this.raw("POST", `/api/boards/${boardId}/claim-next`, { body });
    if (response.status >= 400) {
      throw errorFromResponse(response.status, (response.body as { error?: string })?.error ?? "");
    }
    return response.status === 204 ? null : (response.body as Ticket);
  }

  /** Sets checklist item `index` (0-based) of the ticket's body (docs/api.md, "Checklists"). */
  setChecklistItem(ticketId: number, index: number, checked: boolean, ifMatch?: string) {
    return this.call<Ticket>("PATCH", `/api/tickets/${ticketId}/checklist`, {
      body: { index, checked },
      ifMatch,
    });
  }

  // Comments, events, activity
  async listComments(ticketId: number): Promise<CommentT[]> {
    return (await this.call<{ comments: CommentT[] }>("GET", `/api/tickets/${ticketId}/comments`))
      .comments;
  }
  addComment(ticketId: number, bodyMarkdown: string, idempotencyKey?: string) {
    return this.call<CommentT>("POST", `/api/tickets/${ticketId}/comments`, {
      body: { bodyMarkdown },
      idempotencyKey,
    });
  }
  editComment(commentId: number, bodyMarkdown: string) {
    return this.call<CommentT>("PATCH", `/api/comments/${commentId}`, { body: { bodyMarkdown } });
  }
  async listEvents(ticketId: number): Promise<TicketEventT[]> {
    return (await this.call<{ events: TicketEventT[] }>("GET", `/api/tickets/${ticketId}/events`))
      .events;
  }
  logEvent(ticketId: number, event: TicketEventInput, idempotencyKey?: string) {
    return this.call<TicketEventT>("POST", `/api/tickets/${ticketId}/events`, {
      body: event,
      idempotencyKey,
    });
  }
  async listActivity(ticketId: number): Promise<ActivityEntry[]> {
    return (
      await this.call<{ activity: ActivityEntry[] }>("GET", `/api/tickets/${ticketId}/activity`)
    ).activity;
  }

  // Remote tracking
  remoteProviders() {
    return this.call<{ providers: { id: string; hasCredential: boolean; status: string }[] }>(
      "GET",
      "/api/remote-diagnostics",
    );
  }
  async remoteDiagnose(reference: Record<string, unknown>): Promise<RemoteDiagnostic> {
    // A failed diagnosis is a 400 whose body is still the result.
    const response = await this.raw("POST", "/api/remote-diagnostics", { body: reference });
    const body = response.body as RemoteDiagnostic & { error?: string };
    if (response.status >= 400 && body?.status === undefined) {
      throw errorFromResponse(response.status, body?.error ?? `HTTP ${response.status}`);
    }
    return body;
  }
  remotePreview(boardId: number, reference: Record<string, unknown>) {
    return this.call<RemotePreview>("POST", `/api/boards/${boardId}/remote-import/preview`, {
      body: reference,
    });
  }
  remoteImport(boardId: number, reference: Record<string, unknown>, idempotencyKey?: string) {
    return this.call<Ticket>("POST", `/api/boards/${boardId}/remote-import`, {
      body: reference,
      idempotencyKey,
    });
  }
  remoteRefresh(ticketId: number) {
    return this.call<Ticket>("POST", `/api/tickets/${ticketId}/remote-refresh`);
  }
  pushComment(commentId: number) {
    return this.call<CommentT>("POST", `/api/comments/${commentId}/push-remote`);
  }
}

const UPLOAD_CHUNK = 256 * 1024;

/** The body as a stream of chunks, reporting progress as fetch pulls each one. */
function uploadStream(text: string, onUpload: (sent: number) => void): ReadableStream<Uint8Array> {
  const bytes = Buffer.from(text);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes.length) {
        controller.close();
        return;
      }
      const chunk = bytes.subarray(sent, sent + UPLOAD_CHUNK);
      sent += chunk.length;
      controller.enqueue(chunk);
      onUpload(sent);
    },
  });
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
