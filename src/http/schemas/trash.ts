import { Type } from "@sinclair/typebox";
import { TrashItem } from "../../model/trash.js";
import { Id } from "./common.js";

export { TrashItem, TrashKind, TrashRestored } from "../../model/trash.js";

export const TrashList = Type.Object({ items: Type.Array(Type.Ref(TrashItem)) });

export const TrashListQuery = Type.Object({ boardId: Type.Optional(Id) });

export const TrashIdParams = Type.Object({ trashId: Id });
