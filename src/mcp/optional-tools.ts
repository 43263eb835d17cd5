import { Type } from "@sinclair/typebox";
import { chooseBoard } from "../client/board-choice.js";
import { ApiError } from "../client/errors.js";
import { insightsSummary } from "../client/insights-format.js";
import { findLane } from "../client/ticket-operations.js";
import { ActionOutput, InsightsOutput } from "./output-schemas.js";
import { defineTool, READ, type TackTool, write } from "./tool-kit.js";

// Opt-in toolsets (`tack mcp --toolsets remote,admin`): one tool each with an `action`, so a
// session that needs them pays for two definitions, not a dozen.

function need<T>(value: T | undefined, name: string, action: string): T {
  if (value === undefined) {
    throw new ApiError(
      "invalid_request",
      `${name} is required for ${action}`,
      `pass ${name}`,
      false,
      400,
    );
  }
  return value;
}

export const remoteTools: TackTool[] = [
  defineTool({
    name: "remote",
    title: "Remote issues (GitHub, GitLab, Redmine)",
    description:
      "Track issues of GitHub, GitLab or Redmine. action: providers (credentials configured), diagnose (can tack reach url?), preview (what import would create), import (url -> new ticket), refresh (ticketId), push_comment (commentId -> the tracked issue). Returns the API's answer.",
    input: Type.Object({
      action: Type.Union(
        ["providers", "diagnose", "preview", "import", "refresh", "push_comment"].map((name) =>
          Type.Literal(name),
        ),
      ),
      url: Type.Optional(Type.String({ description: "Issue web URL." })),
      provider: Type.Optional(
        Type.String({ description: "github, gitlab or redmine; guessed from url." }),
      ),
      boardId: Type.Optional(Type.Integer({ minimum: 1 })),
      lane: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.String()])),
      ticketId: Type.Optional(Type.Integer({ minimum: 1 })),
      commentId: Type.Optional(Type.Integer({ minimum: 1 })),
    }),
    output: ActionOutput(
      "providers: {providers}; diagnose: a RemoteDiagnosticResult; preview: the import preview; import and refresh: {id, title, remote}; push_comment: {id, sync}.",
    ),
    // Reaches the remote provider: the world outside tack.
    annotations: { ...write(false), openWorldHint: true },
    async run(args, context) {
      const { client } = context;
      const reference = () => {
        const url = need(args.url, "url", args.action);
        const provider =
          args.provider ??
          (url.includes("github")
            ? "github"
            : url.includes("gitlab") || url.includes("/-/")
              ? "gitlab"
              : "redmine");
        return { provider, url };
      };
      // Where a preview or an import puts the ticket: args.lane, else the board's first lane.
      const target = async () => {
        const boardId = await chooseBoard(client, args.boardId ?? context.boardId);
        const lanes = await client.listLanes(boardId);
        const lane = args.lane === undefined ? lanes[0] : findLane(lanes, args.lane);
        return { boardId, laneId: lane?.id };
      };
      switch (args.action) {
        case "providers": {
          const result = await client.remoteProviders();
          return {
            summary: result.providers.map((one) => `${one.id}: ${one.status}`).join(", "),
            data: result,
          };
        }
        case "diagnose": {
          const result = await client.remoteDiagnose(reference());
          return { summary: `${result.provider}: ${result.status}`, data: result };
        }
        case "preview": {
          const { boardId, laneId } = await target();
          const result = await client.remotePreview(boardId, { ...reference(), laneId });
          return {
            summary: `${result.displayRef}: ${result.title}${result.duplicate ? " (already tracked)" : ""}`,
            data: result,
          };
        }
        case "import": {
          const { boardId, laneId } = await target();
          const ticket = await client.remoteImport(boardId, { ...reference(), laneId });
          return {
            summary: `Imported as #${ticket.id}`,
            data: { id: ticket.id, title: ticket.title, remote: ticket.remote },
          };
        }
        case "refresh": {
          const ticket = await client.remoteRefresh(need(args.ticketId, "ticketId", args.action));
          return {
            summary: `Refreshed #${ticket.id}`,
            data: { id: ticket.id, title: ticket.title, remote: ticket.remote },
          };
        }
        default: {
          const comment = await client.pushComment(need(args.commentId, "commentId", args.action));
          return {
            summary: `Comment ${comment.id}: ${comment.sync.status}`,
            data: { id: comment.id, sync: comment.sync },
          };
        }
      }
    },
  }),
];

export const adminTools: TackTool[] = [
  defineTool({
    name: "board_admin",
    title: "Administer boards, lanes, tags",
    description:
      "Board administration. action: list_boards, create_board (name, laneNames), rename_board (boardId, name), create_lane (boardId, name), rename_lane (laneId, name), reorder_lanes (boardId, laneIds), create_tag (boardId, name, color), delete_ticket (ticketId; it goes to the trash, restore_from_trash brings it back), export_board (boardId). Returns the API's answer.",
    input: Type.Object({
      action: Type.Union(
        [
          "list_boards",
          "create_board",
          "rename_board",
          "create_lane",
          "rename_lane",
          "reorder_lanes",
          "create_tag",
          "delete_ticket",
          "export_board",
        ].map((name) => Type.Literal(name)),
      ),
      boardId: Type.Optional(Type.Integer({ minimum: 1 })),
      laneId: Type.Optional(Type.Integer({ minimum: 1 })),
      ticketId: Type.Optional(Type.Integer({ minimum: 1 })),
      name: Type.Optional(Type.String()),
      laneNames: Type.Optional(Type.Array(Type.String())),
      laneIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }))),
      color: Type.Optional(Type.String()),
    }),
    output: ActionOutput(
      "list_boards: {boards}; create_board: {board, lanes}; rename_board: the board; create_lane, rename_lane: the lane; reorder_lanes: {lanes}; create_tag: the tag; delete_ticket: {deleted, trash} (trash: the entry that restores it, or null); export_board: the export document.",
    ),
    annotations: write(false, true),
    async run(args, context) {
      const { client } = context;
      const boardId = () => chooseBoard(client, args.boardId ?? context.boardId);
      const name = () => need(args.name, "name", args.action);
      switch (args.action) {
        case "list_boards": {
          const boards = await client.listBoards();
          return { summary: `${boards.length} boards`, data: { boards } };
        }
        case "create_board": {
          const detail = await client.createBoard(name(), args.laneNames);
          return {
            summary: `Created board ${detail.board.id}`,
            data: { board: detail.board, lanes: detail.lanes },
          };
        }
        case "rename_board": {
          const renamed = await client.renameBoard(await boardId(), name());
          return { summary: `Board ${renamed.id} renamed`, data: renamed };
        }
        case "create_lane": {
          const lane = await client.createLane(await boardId(), name());
          return { summary: `Created lane ${lane.id}`, data: lane };
        }
        case "rename_lane": {
          const lane = await client.renameLane(need(args.laneId, "laneId", args.action), name());
          return { summary: `Lane ${lane.id} renamed`, data: lane };
        }
        case "reorder_lanes": {
          const lanes = await client.reorderLanes(
            await boardId(),
            need(args.laneIds, "laneIds", args.action),
          );
          return { summary: "Lanes reordered", data: { lanes } };
        }
        case "create_tag": {
          const tag = await client.createTag(await boardId(), name(), args.color);
          return { summary: `Created tag ${tag.id}`, data: tag };
        }
        case "delete_ticket": {
          const ticketId = need(args.ticketId, "ticketId", args.action);
          await client.deleteTicket(ticketId);
          const entry = await client.trashEntryOf("ticket", ticketId);
          return {
            summary: entry
              ? `Deleted #${ticketId}; it is in the trash until ${entry.expiresAt}: restore_from_trash {"trashId": ${entry.id}} brings it back`
              : `Deleted #${ticketId} for good (this server keeps no trash)`,
            data: { deleted: ticketId, trash: entry ?? null },
          };
        }
        default: {
          const document = JSON.parse(await client.exportBoard(await boardId())) as Record<
            string,
            unknown
          >;
          return { summary: "Board export document", data: document };
        }
      }
    },
  }),
  defineTool({
    name: "board_insights",
    title: "Board flow insights",
    description:
      "How work moved on a board over a period: flow per bucket (tickets per lane), throughput, lead and cycle time percentiles (seconds), aging open tickets, claims and resolutions per actor. from/to: RFC 3339 with offset (default: the last 30 days); bucket: hour, day (default) or week. Returns the API's answer.",
    input: Type.Object({
      boardId: Type.Optional(Type.Integer({ minimum: 1 })),
      from: Type.Optional(Type.String()),
      to: Type.Optional(Type.String()),
      bucket: Type.Optional(
        Type.Union([Type.Literal("hour"), Type.Literal("day"), Type.Literal("week")]),
      ),
    }),
    output: InsightsOutput,
    annotations: READ,
    async run(args, context) {
      const { client } = context;
      const boardId = await chooseBoard(client, args.boardId ?? context.boardId);
      const [insights, lanes] = await Promise.all([
        client.insights(boardId, { from: args.from, to: args.to, bucket: args.bucket }),
        client.listLanes(boardId),
      ]);
      return { summary: insightsSummary(insights, lanes).join("\n"), data: insights };
    },
  }),
  defineTool({
    name: "restore_from_trash",
    title: "Restore from the trash",
    description:
      "Deleted boards, lanes, tags, tickets and comments stay in the trash for a while (30 days by default). With trashId: restores that entry (the object comes back with the same id). With kind and objectId: restores the newest entry of that object. With neither: lists the trash (of boardId if given), newest first. A 409 names what to restore first.",
    input: Type.Object({
      trashId: Type.Optional(Type.Integer({ minimum: 1 })),
      kind: Type.Optional(
        Type.Union(["board", "lane", "tag", "ticket", "comment"].map((k) => Type.Literal(k))),
      ),
      objectId: Type.Optional(Type.Integer({ minimum: 1 })),
      boardId: Type.Optional(Type.Integer({ minimum: 1 })),
    }),
    output: ActionOutput(
      "a restore: {kind, objectId}; a listing (no trashId, kind or objectId): {items} (trash entries: id, kind, objectId, boardId, label, deletedAt, expiresAt).",
    ),
    annotations: write(false),
    async run(args, context) {
      const { client } = context;
      let trashId = args.trashId;
      if (trashId === undefined && args.kind !== undefined && args.objectId !== undefined) {
        const entry = await client.trashEntryOf(
          args.kind as "board" | "lane" | "tag" | "ticket" | "comment",
          args.objectId,
        );
        if (!entry) {
          throw new ApiError(
            "not_found",
            `no trash entry holds ${args.kind} ${args.objectId}`,
            "list the trash (call without trashId) to see what can be restored",
            false,
            404,
          );
        }
        trashId = entry.id;
      }
      if (trashId === undefined) {
        const items = await client.listTrash(args.boardId);
        return { summary: `${items.length} entries in the trash`, data: { items } };
      }
      const restored = await client.restoreFromTrash(trashId);
      return {
        summary: `Restored ${restored.kind} ${restored.objectId} (trash entry ${trashId})`,
        data: restored,
      };
    },
  }),
];
