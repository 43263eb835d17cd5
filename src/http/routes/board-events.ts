import { Type } from "@sinclair/typebox";
import type { BoardService } from "../../domain/boards/boards.js";
import type { BoardEventBus } from "../../events/board-events.js";
import { type BoardStreamOptions, BoardStreams } from "../../events/board-stream.js";
import { BoardIdParams, errors } from "../schemas/common.js";
import type { TackApp } from "../types.js";

/** `GET /api/boards/{boardId}/events`: the per-board change stream (CONTRACT.md §9). */
export function boardEventRoutes(
  app: TackApp,
  boards: Pick<BoardService, "require">,
  bus: BoardEventBus,
  options: BoardStreamOptions = {},
): BoardStreams {
  const streams = new BoardStreams(bus, options);
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
            description: "text/event-stream",
            content: { "text/event-stream": { schema: Type.String() } },
          },
          ...errors(400, 404),
        },
      },
    },
    async (request, reply) => {
      boards.require(request.params.boardId);
      reply.hijack();
      streams.attach(request.params.boardId, reply.raw, request.headers["last-event-id"]);
    },
  );

  return streams;
}
