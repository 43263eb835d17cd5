import { Type } from "@sinclair/typebox";
import type { BoardService } from "../../domain/boards/boards.js";
import type { BoardEventBus } from "../../events/board-events.js";
import { type BoardStreamOptions, BoardStreams } from "../../events/board-stream.js";
import { MAX_STREAMS, MAX_STREAMS_PER_BOARD } from "../request-limits.js";
import { BoardIdParams, errors } from "../schemas/common.js";
import type { TackApp } from "../types.js";

/**
 * `GET /api/boards/{boardId}/events`: the per-board change stream (docs/api.md, "The board change
 * stream").
 */
export function boardEventRoutes(
  app: TackApp,
  boards: Pick<BoardService, "require">,
  bus: BoardEventBus,
  options: BoardStreamOptions = {},
): BoardStreams {
  const streams = new BoardStreams(bus, options);
  const streamLimits = new StreamLimits();
  // Open streams never finish by themselves; end them so close() (and the process) can finish.
  app.addHook("preClose", async () => streams.closeAll());

  app.get(
    "/api/boards/:boardId/events",
    {
      // A HEAD request would otherwise hold a stream open with nothing to read.
      exposeHeadRoute: false,
      config: { noEntityTag: true },
      schema: {
        operationId: "streamBoardEvents",
        summary: "Stream a board's change notifications",
        tags: ["boards"],
        description:
          "Server-sent events. `: connected` first, then one `id:` + `data:` message per committed " +
          'change (`{"boardId","event":"board_updated"|"board_deleted","sentAt","ticketIds"}`; ' +
          "`ticketIds` lists the tickets the change touched and is absent on a catch-up " +
          "message, meaning refetch everything), `: ping` every " +
          "15 s. After `board_deleted` the stream ends. A `Last-Event-ID` older than the board's " +
          "newest message (or unknown to this server run) gets one `board_updated` at once.",
        params: BoardIdParams,
        headers: Type.Object({ "last-event-id": Type.Optional(Type.String()) }),
        response: {
          200: {
            description:
              "The stream: `: connected`, then one message per committed change, until the " +
              "board is deleted or the client leaves.",
            content: { "text/event-stream": { schema: Type.String() } },
          },
          ...errors(400, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const { boardId } = request.params;
      boards.require(boardId);
      // Each stream holds a socket: a runaway page or script must not exhaust them.
      const limit = streamLimits.refusal(boardId);
      if (limit) return reply.code(429).send({ error: limit });
      reply.hijack();
      streamLimits.opened(boardId, reply.raw);
      streams.attach(boardId, reply.raw, request.headers["last-event-id"]);
    },
  );

  return streams;
}

/** Counts open streams per board and in all (MAX_STREAMS_PER_BOARD, MAX_STREAMS). */
class StreamLimits {
  private total = 0;
  private readonly perBoard = new Map<number, number>();

  refusal(boardId: number): string | undefined {
    if ((this.perBoard.get(boardId) ?? 0) >= MAX_STREAMS_PER_BOARD) {
      return `too many open event streams for this board (at most ${MAX_STREAMS_PER_BOARD})`;
    }
    if (this.total >= MAX_STREAMS) return `too many open event streams (at most ${MAX_STREAMS})`;
    return undefined;
  }

  opened(boardId: number, response: NodeJS.EventEmitter): void {
    this.total += 1;
    this.perBoard.set(boardId, (this.perBoard.get(boardId) ?? 0) + 1);
    response.once("close", () => {
      this.total -= 1;
      const left = (this.perBoard.get(boardId) ?? 1) - 1;
      if (left === 0) this.perBoard.delete(boardId);
      else this.perBoard.set(boardId, left);
    });
  }
}
