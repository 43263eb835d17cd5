import type { BoardT } from "./api-types.js";
import { ApiError } from "./errors.js";
import type { TackClient } from "./tack-client.js";

/**
 * The board a command acts on: the one given, else the only board there is. With several boards
 * and none given the caller must choose, so the error lists them.
 */
export async function chooseBoard(client: TackClient, given?: number): Promise<number> {
  if (given !== undefined) return given;
  const boards = await client.listBoards();
  if (boards.length === 1) return (boards[0] as BoardT).id;
  if (boards.length === 0) {
    throw new ApiError(
      "not_found",
      "there are no boards yet",
      "create one: tack board create <name>",
      false,
      404,
    );
  }
  const names = boards.map((board) => `${board.id} (${board.name})`).join(", ");
  throw new ApiError(
    "invalid_request",
    `several boards exist: ${names}`,
    "name one with --board <id> (or TACK_BOARD, or the boardId argument)",
    false,
    400,
  );
}
