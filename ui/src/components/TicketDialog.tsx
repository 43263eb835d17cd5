import { useSignal, useSignalEffect } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { ApiError, api, errorMessage, requestWithHeaders } from "../api";
import { remoteChange } from "../board-data";
import { overlay } from "../board-state";
import { boxesAreChecklist, tickChecklist } from "../checklist";
import { diffLines } from "../diff";
import { handleEditorKey } from "../editor-keys";
import { removing } from "../local-changes";
import { followInPageLink, labelTaskCheckboxes } from "../markdown-html";
import { renderMarkdown } from "../markdown-preview";
import { closeTicket, consumeEditTitle } from "../navigation";
import { recall, remember } from "../prefs";
import { putTicket, removeTickets } from "../ticket-writes";
import { toast } from "../toasts";
import type { Ticket } from "../types";
import { offerUndo } from "../undo";
import { ClaimBadge } from "./bits";
import { loopFields } from "./Card";
import { Modal } from "./Modal";
import { TicketActivity } from "./TicketActivity";
import { TicketAsks } from "./TicketAsks";
import { TicketSide } from "./TicketSide";

interface Draft {
  /** The server body the draft started from: tells "changed elsewhere" from "my edit". */
  base: string;
  text: string;
}

const draftKey = (id: number) => `tack.draft.${id}`;

/** The ticket dialog (its own URL, /tickets/{id}); a full-screen sheet on a narrow window. */
export function TicketDialog(props: { ticketId: number }) {
  const id = props.ticketId;
  const ticket = useSignal<Ticket | null>(null);
  const etag = useSignal<string | null>(null);
  const error = useSignal<string | null>(null);
  const draft = useSignal<Draft | null>(recall<Draft | null>(draftKey(id), null));
  const mode = useSignal<"write" | "preview">("preview");
  const tab = useSignal<"local" | "remote" | "diff">("local");
  const previewHtml = useSignal("");
  const saving = useSignal(false);
  const conflict = useSignal<Ticket | null>(null);
  const editingTitle = useSignal(consumeEditTitle());
  const textarea = useRef<HTMLTextAreaElement>(null);
  const restored = useSignal(draft.value !== null);

  const load = async (quiet = false): Promise<Ticket | null> => {
    try {
      const answer = await requestWithHeaders<Ticket>("GET", `/api/tickets/${id}`);
      return receive(answer.data, answer.etag);
    } catch (failure) {
      if (!quiet) error.value = errorMessage(failure);
      if (failure instanceof ApiError && failure.status === 404 && ticket.value) {
        toast(`${ticket.value.shortRef} was deleted elsewhere.`, "error");
        removeTickets([id]);
      }
      return null;
    }
  };

  /** Takes a fresh server copy; an open draft is never overwritten, a conflict is shown instead. */
  const receive = (fresh: Ticket, freshEtag: string | null): Ticket => {
    const mine = draft.value;
    if (mine && fresh.bodyMarkdown !== mine.base && fresh.bodyMarkdown !== mine.text) {
      conflict.value = fresh;
    }
    ticket.value = fresh;
    etag.value = freshEtag;
    putTicket(fresh);
    return fresh;
  };

  useEffect(() => {
    void load();
  }, [id]);

  // Live: when the stream says this ticket (or the whole board) changed, fetch it again.
  useSignalEffect(() => {
    const change = remoteChange.value;
    if (change.at === 0) return;
    if (change.ticketIds && !change.ticketIds.includes(id)) return;
    const before = ticket.peek();
    void load(true).then((fresh) => {
      if (!fresh || !before) return;
      if (fresh.version !== before.version && !draft.peek())
        toast(`${fresh.shortRef} was updated elsewhere.`);
    });
  });

  const setDraft = (text: string) => {
    const base = draft.value?.base ?? ticket.value?.bodyMarkdown ?? "";
    const next = text === base ? null : { base, text };
    draft.value = next;
    remember(draftKey(id), next ?? undefined);
  };

  const body = draft.value?.text ?? ticket.value?.bodyMarkdown ?? "";
  const dirty =
    draft.value !== null && ticket.value !== null && draft.value.text !== ticket.value.bodyMarkdown;

  useEffect(() => {
    if (mode.value !== "preview" || !dirty) return;
    let live = true;
    // A failed preview leaves the last one shown; saving reports its own errors.
    renderMarkdown(body).then(
      (html) => {
        if (live) previewHtml.value = html;
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [mode.value, body, dirty]);

  const save = async (force = false) => {
    const current = ticket.value;
    const mine = draft.value;
    if (!current || !mine || saving.value) return;
    saving.value = true;
    try {
      await api.patch<Ticket>(
        `/api/tickets/${id}`,
        { bodyMarkdown: mine.text },
        { ifMatch: force ? undefined : (etag.value ?? undefined) },
      );
      draft.value = null;
      remember(draftKey(id), undefined);
      conflict.value = null;
      restored.value = false;
      await load();
      toast("Body saved.");
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 412) {
        // Someone else changed the ticket: show theirs next to mine, overwrite nothing.
        const fresh = await requestWithHeaders<Ticket>("GET", `/api/tickets/${id}`);
        ticket.value = fresh.data;
        etag.value = fresh.etag;
        conflict.value = fresh.data;
      } else {
        toast(`Not saved (your text is kept): ${errorMessage(failure)}`, "error");
      }
    } finally {
      saving.value = false;
    }
  };

  const close = () => {
    if (dirty && !window.confirm("This ticket has unsaved text. Close and discard it?")) return;
    if (dirty) remember(draftKey(id), undefined);
    closeTicket(ticket.value?.boardId ?? null);
  };

  const saveTitle = async (title: string) => {
    editingTitle.value = false;
    const current = ticket.value;
    if (!current || !title.trim() || title.trim() === current.title) return;
    try {
      await api.patch(`/api/tickets/${id}`, { title }, { ifMatch: etag.value ?? undefined });
      await load();
    } catch (failure) {
      toast(errorMessage(failure), "error");
      await load();
    }
  };

  /** A ticked box of the saved body: one checklist PATCH, the box put back if it fails. */
  const tick = async (event: Event) => {
    const box = event.target;
    const container = event.currentTarget as HTMLElement;
    if (!(box instanceof HTMLInputElement) || box.type !== "checkbox") return;
    const index = [...container.querySelectorAll('input[type="checkbox"]')].indexOf(box);
    try {
      const answer = await tickChecklist(id, index, box.checked, etag.value);
      receive(answer.data, answer.etag);
    } catch (failure) {
      box.checked = !box.checked;
      toast(errorMessage(failure), "error");
      await load(true);
    }
  };

  const current = ticket.value;
  const tickable =
    current !== null && boxesAreChecklist(current.bodyHtml, loopFields(current).checklist.total);
  return (
    <Modal
      label={current ? `${current.shortRef} ${current.title}` : "Ticket"}
      class="ticket-dialog"
      onClose={close}
    >
      {!current ? (
        <div class="dialog-loading">
          {error.value ? (
            <>
              <p role="alert">
                Cannot open ticket #{id}: {error.value}
              </p>
              <button type="button" class="button" onClick={close}>
                Close
              </button>
            </>
          ) : (
            <p>Loading…</p>
          )}
        </div>
      ) : (
        <div class="ticket">
          <header class="ticket-header">
            <span class="card-ref">{current.shortRef}</span>
            {current.isResolved && <span class="badge badge-ok">✓ Resolved</span>}
            {current.isArchived && <span class="badge badge-muted">Archived</span>}
            {current.claim && <ClaimBadge claim={current.claim} />}
            <span class="card-spacer" />
            <button
              type="button"
              class="icon-button"
              aria-label="Close (Esc)"
              title="Close (Esc)"
              onClick={close}
            >
              ✕
            </button>
          </header>
          {editingTitle.value && !current.remote ? (
            <input
              class="title-input"
              aria-label="Title"
              ref={(element) => element?.focus()}
              defaultValue={current.title}
              onKeyDown={(event) => {
                if (event.key === "Enter") void saveTitle((event.target as HTMLInputElement).value);
                if (event.key === "Escape") {
                  event.preventDefault();
                  event.stopPropagation();
                  editingTitle.value = false;
                }
              }}
              onBlur={(event) => {
                if (editingTitle.value) void saveTitle((event.target as HTMLInputElement).value);
              }}
            />
          ) : (
            <h2 class="ticket-title">
              {current.remote ? (
                <span
                  title={`The title comes from ${current.remote.displayRef}; refresh the remote to update it.`}
                >
                  {current.title}
                </span>
              ) : (
                <button
                  type="button"
                  class="title-button"
                  title="Edit title (e)"
                  onClick={() => (editingTitle.value = true)}
                >
                  {current.title}
                </button>
              )}
            </h2>
          )}
          {current.remote && (
            <p class="muted small">
              Title is read-only: it is copied from {current.remote.displayRef}.
            </p>
          )}
          <div class="ticket-columns">
            <div class="ticket-main">
              <TicketAsks ticketId={id} version={current.version} onChanged={() => void load()} />
              {conflict.value && draft.value && (
                <div class="notice notice-warn" role="alert">
                  <strong>This ticket changed elsewhere</strong> while you were editing. Your text
                  is kept.
                  <details>
                    <summary>What changed</summary>
                    <DiffView before={draft.value.text} after={conflict.value.bodyMarkdown} />
                  </details>
                  <div class="notice-actions">
                    <button type="button" class="button" onClick={() => void save(true)}>
                      Save mine over theirs
                    </button>
                    <button
                      type="button"
                      class="button"
                      onClick={() => {
                        draft.value = null;
                        remember(draftKey(id), undefined);
                        conflict.value = null;
                      }}
                    >
                      Discard mine, take theirs
                    </button>
                  </div>
                </div>
              )}
              {restored.value && dirty && !conflict.value && (
                <div class="notice">Restored your unsaved draft of this body.</div>
              )}
              {current.remote && (
                <div class="segmented" role="tablist" aria-label="Body source">
                  {(["local", "remote", "diff"] as const).map((name) => (
                    <button
                      key={name}
                      type="button"
                      role="tab"
                      aria-selected={tab.value === name}
                      onClick={() => (tab.value = name)}
                    >
                      {name === "local" ? "Local" : name === "remote" ? "Remote" : "Diff"}
                    </button>
                  ))}
                </div>
              )}
              {tab.value === "remote" && current.remote ? (
                <div
                  class="markdown"
                  onClick={followInPageLink}
                  dangerouslySetInnerHTML={{ __html: labelTaskCheckboxes(current.remote.bodyHtml) }}
                />
              ) : tab.value === "diff" && current.remote ? (
                <DiffView before={current.remote.bodyMarkdown} after={body} />
              ) : (
                <div class="editor">
                  <div class="editor-bar">
                    <div class="segmented" role="tablist" aria-label="Body">
                      <button
                        type="button"
                        role="tab"
                        aria-selected={mode.value === "write"}
                        onClick={() => (mode.value = "write")}
                      >
                        Write
                      </button>
                      <button
                        type="button"
                        role="tab"
                        aria-selected={mode.value === "preview"}
                        onClick={() => (mode.value = "preview")}
                      >
                        Preview
                      </button>
                    </div>
                    {loopFields(current).checklist.total > 0 && (
                      <span class="muted small" title="Checklist: the body's task list">
                        ☑ {loopFields(current).checklist.done}/{loopFields(current).checklist.total}{" "}
                        done
                      </span>
                    )}
                    <span class="card-spacer" />
                    {dirty && <span class="muted small">Unsaved · draft kept locally</span>}
                    <button
                      type="button"
                      class="button button-primary"
                      disabled={!dirty || saving.value}
                      onClick={() => void save()}
                      title="Save (Ctrl/⌘+Enter)"
                    >
                      {saving.value ? "Saving…" : "Save"}
                    </button>
                  </div>
                  {mode.value === "write" ? (
                    <textarea
                      ref={(element) => {
                        textarea.current = element;
                      }}
                      class="body-input"
                      aria-label="Body (Markdown)"
                      value={body}
                      placeholder="Write Markdown…"
                      onInput={(event) => setDraft((event.target as HTMLTextAreaElement).value)}
                      onKeyDown={(event) => {
                        if ((event.ctrlKey || event.metaKey) && event.key === "Enter") {
                          event.preventDefault();
                          void save();
                          return;
                        }
                        if (textarea.current) handleEditorKey(event, textarea.current);
                      }}
                    />
                  ) : (
                    <div
                      class="markdown body-preview"
                      title="Double-click to edit"
                      onClick={followInPageLink}
                      onDblClick={() => (mode.value = "write")}
                      onChange={(event) => {
                        if (tickable && !dirty) void tick(event);
                      }}
                      dangerouslySetInnerHTML={{
                        __html: labelTaskCheckboxes(
                          dirty
                            ? previewHtml.value
                            : current.bodyHtml ||
                                '<p class="muted">No description. Choose Write to add one.</p>',
                          tickable && !dirty,
                        ),
                      }}
                    />
                  )}
                </div>
              )}
              <TicketActivity ticket={current} onChanged={() => void load()} />
            </div>
            <TicketSide
              ticket={current}
              etag={etag.value}
              onChanged={(fresh) => {
                if (fresh) putTicket(fresh);
                void load();
              }}
              onDelete={() =>
                (overlay.value = {
                  kind: "confirm",
                  title: `Delete ${current.shortRef}?`,
                  message: `“${current.title}”, its comments and its links go to the trash (Undo, or the Trash view, brings them back).`,
                  action: "Delete ticket",
                  run: async () => {
                    try {
                      await removing([id], () =>
                        api.delete(`/api/tickets/${id}`, { ifMatch: etag.value ?? undefined }),
                      );
                      remember(draftKey(id), undefined);
                      draft.value = null;
                      removeTickets([id]);
                      void offerUndo(
                        [{ kind: "ticket", objectId: id }],
                        `${current.shortRef} deleted.`,
                      );
                      closeTicket(current.boardId);
                    } catch (failure) {
                      toast(errorMessage(failure), "error");
                    }
                  },
                })
              }
            />
          </div>
        </div>
      )}
    </Modal>
  );
}

export function DiffView(props: { before: string; after: string }) {
  const lines = diffLines(props.before, props.after);
  if (lines.every((line) => line.kind === "same")) return <p class="muted">No differences.</p>;
  return (
    <pre class="diff">
      {lines.map((line, index) => (
        <div key={index} class={`diff-${line.kind}`}>
          {line.kind === "add" ? "+ " : line.kind === "remove" ? "- " : "  "}
          {line.text}
        </div>
      ))}
    </pre>
  );
}
