import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api, errorMessage } from "../api";
import { remoteChange } from "../board-data";
import { followInPageLink, labelTaskCheckboxes } from "../markdown-html";
import { toast } from "../toasts";
import type { ActivityEntry, Comment, Ticket, TicketEvent } from "../types";
import { offerUndo } from "../undo";
import { formatDateTime, relativeTime } from "./bits";

/** Comments (add, edit, delete, push to remote) and one timeline of activity and agent events. */
export function TicketActivity(props: { ticket: Ticket; onChanged: () => void }) {
  const { ticket } = props;
  const text = useSignal("");
  const editing = useSignal<{ id: number; text: string } | null>(null);
  const timeline = useSignal<
    { at: string; key: string; kind: "activity" | "event"; title: string; detail: string | null }[]
  >([]);

  const loadTimeline = async () => {
    try {
      const [activity, events] = await Promise.all([
        api.get<{ activity: ActivityEntry[] }>(`/api/tickets/${ticket.id}/activity`),
        api.get<{ events: TicketEvent[] }>(`/api/tickets/${ticket.id}/events`),
      ]);
      timeline.value = [
        ...activity.activity.map((entry) => ({
          at: entry.createdAt,
          key: `a${entry.id}`,
          kind: "activity" as const,
          title: entry.message,
          detail: null,
        })),
        ...events.events.map((entry) => ({
          at: entry.createdAt,
          key: `e${entry.id}`,
          kind: "event" as const,
          title: `${entry.source}: ${entry.title}`,
          detail: entry.summary,
        })),
      ].sort((a, b) => b.at.localeCompare(a.at));
    } catch {
      // The timeline is secondary; the ticket itself is shown.
    }
  };
  useEffect(() => {
    void loadTimeline();
  }, [ticket.id, ticket.updatedAt, remoteChange.value.at]);

  const add = async () => {
    const body = text.value;
    if (!body.trim()) return;
    try {
      await api.post<Comment>(`/api/tickets/${ticket.id}/comments`, { bodyMarkdown: body });
      text.value = "";
      props.onChanged();
    } catch (error) {
      toast(errorMessage(error), "error");
    }
  };
  const saveEdit = async () => {
    const current = editing.value;
    if (!current) return;
    try {
      await api.patch(`/api/comments/${current.id}`, { bodyMarkdown: current.text });
      editing.value = null;
      props.onChanged();
    } catch (error) {
      toast(errorMessage(error), "error");
    }
  };
  const remove = async (comment: Comment) => {
    if (!window.confirm("Delete this comment?")) return;
    try {
      await api.delete(`/api/comments/${comment.id}`);
      props.onChanged();
      void offerUndo([{ kind: "comment", objectId: comment.id }], "Comment deleted.");
    } catch (error) {
      toast(errorMessage(error), "error");
    }
  };
  const push = async (comment: Comment) => {
    try {
      await api.post(`/api/comments/${comment.id}/push-remote`);
      toast("Comment pushed to the remote issue.");
    } catch (error) {
      toast(`Push failed: ${errorMessage(error)}`, "error");
    }
    props.onChanged();
  };

  const comments = [...ticket.comments].sort(
    (a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id,
  );
  return (
    <>
      <section class="comments" aria-label="Comments">
        <h3>Comments</h3>
        <form
          class="comment-form"
          onSubmit={(event) => {
            event.preventDefault();
            void add();
          }}
        >
          <textarea
            aria-label="New comment (Markdown)"
            placeholder="Add a comment… (Ctrl/⌘+Enter)"
            value={text.value}
            onInput={(event) => (text.value = (event.target as HTMLTextAreaElement).value)}
            onKeyDown={(event) => {
              if ((event.ctrlKey || event.metaKey) && event.key === "Enter") {
                event.preventDefault();
                void add();
              }
            }}
          />
          <button type="submit" class="button" disabled={!text.value.trim()}>
            Comment
          </button>
        </form>
        {comments.map((comment) => {
          const locked = comment.sync.status === "pushed" || comment.sync.status === "pushing";
          return (
            <article key={comment.id} class="comment">
              <div class="comment-head">
                <time dateTime={comment.createdAt} title={formatDateTime(comment.createdAt)}>
                  {relativeTime(comment.createdAt)}
                </time>
                {ticket.remote && <SyncBadge comment={comment} />}
                <span class="card-spacer" />
                {ticket.remote &&
                  (comment.sync.status === "local_only" ||
                    comment.sync.status === "push_failed") && (
                    <button type="button" class="link-button" onClick={() => void push(comment)}>
                      {comment.sync.status === "push_failed" ? "Retry push" : "Push to remote"}
                    </button>
                  )}
                {!locked && (
                  <>
                    <button
                      type="button"
                      class="link-button"
                      onClick={() =>
                        (editing.value = { id: comment.id, text: comment.bodyMarkdown })
                      }
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      class="link-button danger"
                      onClick={() => void remove(comment)}
                    >
                      Delete
                    </button>
                  </>
                )}
              </div>
              {editing.value?.id === comment.id ? (
                <div class="comment-form">
                  <textarea
                    aria-label="Edit comment"
                    value={editing.value.text}
                    onInput={(event) => {
                      if (editing.value)
                        editing.value = {
                          ...editing.value,
                          text: (event.target as HTMLTextAreaElement).value,
                        };
                    }}
                  />
                  <div class="quick-add-actions">
                    <button
                      type="button"
                      class="button button-primary"
                      onClick={() => void saveEdit()}
                    >
                      Save
                    </button>
                    <button type="button" class="button" onClick={() => (editing.value = null)}>
                      Cancel
                    </button>
                  </div>
                </div>
              ) : (
                <div
                  class="markdown"
                  onClick={followInPageLink}
                  dangerouslySetInnerHTML={{ __html: labelTaskCheckboxes(comment.bodyHtml) }}
                />
              )}
              {comment.sync.status === "push_failed" && comment.sync.lastError && (
                <p class="form-error">{comment.sync.lastError}</p>
              )}
            </article>
          );
        })}
      </section>
      <section class="timeline" aria-label="Timeline">
        <h3>Timeline</h3>
        <ol class="timeline-list">
          {timeline.value.map((entry) => (
            <li key={entry.key} class={`timeline-${entry.kind}`}>
              <span class="timeline-dot" aria-hidden="true" />
              <span class="timeline-title">{entry.title}</span>
              {entry.detail && <span class="muted"> — {entry.detail}</span>}
              {/* A separator, so a detail that ends in a number does not run into the time. */}
              <span class="muted small"> · </span>
              <time class="muted small" dateTime={entry.at} title={formatDateTime(entry.at)}>
                {relativeTime(entry.at)}
              </time>
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}

function SyncBadge({ comment }: { comment: Comment }) {
  const labels = {
    local_only: "local",
    pushing: "pushing…",
    pushed: "pushed",
    push_failed: "push failed",
  } as const;
  const classes = {
    local_only: "",
    pushing: "badge-warn",
    pushed: "badge-ok",
    push_failed: "badge-danger",
  } as const;
  return <span class={`badge ${classes[comment.sync.status]}`}>{labels[comment.sync.status]}</span>;
}
