import { type Static, Type } from "@sinclair/typebox";
import { Id, Literals, Nullable, Timestamp } from "./common.js";

// Comments and the state of their push to a tracked remote issue (docs/api.md, "Comments",
// "Remote tracking").

export const CommentSyncStatus = Literals(["local_only", "pushing", "pushed", "push_failed"], {
  $id: "CommentSyncStatus",
});
export type CommentSyncStatus = Static<typeof CommentSyncStatus>;

export const CommentSync = Type.Object(
  {
    commentId: Id,
    status: Type.Ref(CommentSyncStatus),
    remoteCommentId: Nullable(Type.String()),
    pushedAt: Nullable(Timestamp),
    lastError: Nullable(Type.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: "CommentSync" },
);
export type CommentSync = Static<typeof CommentSync>;

/** The fields of a comment a board export keeps (the push state stays behind). */
const commentFields = {
  id: Id,
  ticketId: Id,
  bodyMarkdown: Type.String(),
  bodyHtml: Type.String(),
  createdAt: Timestamp,
};

export const Comment = Type.Object(
  { ...commentFields, sync: Type.Ref(CommentSync) },
  { $id: "Comment" },
);
export type Comment = Static<typeof Comment>;
export const CommentRef = Type.Ref(Comment);

/** A comment in a board export: without its push state. */
export const ExportedComment = Type.Object(commentFields);
export type ExportedComment = Static<typeof ExportedComment>;
