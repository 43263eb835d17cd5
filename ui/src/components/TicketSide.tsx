import { useSignal } from "@preact/signals";
import { api, errorMessage } from "../api";
import { lanes, tags, tickets } from "../board-data";
import { overlay } from "../board-state";
import { openTicket } from "../navigation";
import { PRIORITIES } from "../priorities";
import { toast } from "../toasts";
import type { Tag, Ticket, TicketRelation, TicketSummary } from "../types";
import { relativeTime, TagChip } from "./bits";
import { loopFields } from "./Card";
import { NotBefore } from "./NotBefore";
import { TagPicker, TicketPicker } from "./Pickers";
import { ReferenceForm } from "./ReferenceForm";

interface Props {
  ticket: Ticket;
  etag: string | null;
  onChanged: (fresh?: Ticket) => void;
  onDelete: () => void;
}

const STALE_MS = 24 * 60 * 60 * 1000;

/** The ticket dialog's side column: state, priority, lane, tags, relations, references, remote. */
export function TicketSide({ ticket, etag, onChanged, onDelete }: Props) {
  const refreshing = useSignal(false);
  const patch = async (changes: Record<string, unknown>) => {
    try {
      const fresh = await api.patch<Ticket>(`/api/tickets/${ticket.id}`, changes, {
        ifMatch: etag ?? undefined,
      });
      onChanged(fresh);
    } catch (error) {
      toast(errorMessage(error), "error");
      onChanged();
    }
  };
  const relationIds = (list: TicketRelation[]) => list.map((entry) => entry.id);
  const all = [...tickets.value.values()];

  const refreshRemote = async () => {
    refreshing.value = true;
    try {
      onChanged(await api.post<Ticket>(`/api/tickets/${ticket.id}/remote-refresh`));
      toast("Remote refreshed.");
    } catch (error) {
      toast(errorMessage(error), "error");
    } finally {
      refreshing.value = false;
    }
  };

  // Valid choices only: a parent is a ticket that is not itself a child (one level), and only
  // when this ticket has no children; blockers exclude itself, current blockers and the
  // tickets it blocks (reciprocal); related excludes itself and current links.
  const parentChoices =
    ticket.children.length > 0
      ? []
      : all.filter((t) => t.id !== ticket.id && t.parentTicketId === null);
  const blockedByIds = new Set(ticket.blockedBy.map((entry) => entry.id));
  const blockerChoices = all.filter(
    (t) => t.id !== ticket.id && !ticket.blockerIds.includes(t.id) && !blockedByIds.has(t.id),
  );
  const relatedChoices = all.filter((t) => t.id !== ticket.id && !ticket.relatedIds.includes(t.id));
  const childChoices =
    ticket.parentTicketId !== null
      ? []
      : all.filter(
          (t: TicketSummary) => t.id !== ticket.id && t.parentTicketId === null && !t.hasChildren,
        );

  return (
    <aside class="ticket-side" aria-label="Ticket details">
      <div class="side-actions">
        <button
          type="button"
          class="button"
          onClick={() => void patch({ isResolved: !ticket.isResolved })}
        >
          {ticket.isResolved ? "Reopen" : "Resolve"}
        </button>
        <button
          type="button"
          class="button"
          onClick={() => void patch({ isArchived: !ticket.isArchived })}
        >
          {ticket.isArchived ? "Restore" : "Archive"}
        </button>
        <button
          type="button"
          class="button"
          onClick={() => (overlay.value = { kind: "move", ticketId: ticket.id })}
        >
          Move…
        </button>
      </div>
      <label class="field">
        <span>Priority</span>
        <select
          value={ticket.priority}
          onChange={(event) =>
            void patch({ priority: Number((event.target as HTMLSelectElement).value) })
          }
        >
          {[1, 2, 3, 4].map((priority) => (
            <option key={priority} value={priority}>
              {PRIORITIES[priority]}
            </option>
          ))}
        </select>
      </label>
      <label class="field">
        <span>Lane</span>
        <select
          value={ticket.laneId}
          onChange={(event) =>
            void patch({ laneId: Number((event.target as HTMLSelectElement).value) })
          }
        >
          {lanes.value.map((lane) => (
            <option key={lane.id} value={lane.id}>
              {lane.name}
            </option>
          ))}
        </select>
      </label>
      <NotBefore
        key={loopFields(ticket).notBefore ?? ""}
        notBefore={loopFields(ticket).notBefore}
        onSet={(notBefore) => void patch({ notBefore })}
      />

      <section class="side-section">
        <h3>Tags</h3>
        <div class="chip-row">
          {ticket.tags.map((tag) => (
            <TagChip key={tag.id} tag={tag}>
              <button
                type="button"
                class="chip-remove"
                aria-label={`Remove tag ${tag.name}`}
                onClick={() =>
                  void patch({
                    tagIds: ticket.tags.filter((t) => t.id !== tag.id).map((t) => t.id),
                  })
                }
              >
                ×
              </button>
            </TagChip>
          ))}
        </div>
        <TagPicker
          boardTags={tags.value}
          chosen={ticket.tags.map((tag) => tag.id)}
          onToggle={(tag: Tag) => {
            const ids = ticket.tags.map((t) => t.id);
            void patch({
              tagIds: ids.includes(tag.id) ? ids.filter((id) => id !== tag.id) : [...ids, tag.id],
            });
          }}
          onCreate={async (name) => {
            try {
              const tag = await api.post<Tag>(`/api/boards/${ticket.boardId}/tags`, { name });
              tags.value = [...tags.value, tag];
              await patch({ tagIds: [...ticket.tags.map((t) => t.id), tag.id] });
            } catch (error) {
              toast(errorMessage(error), "error");
            }
          }}
        />
      </section>

      <section class="side-section">
        <h3>Relations</h3>
        <RelationList
          title="Parent"
          list={ticket.parent ? [ticket.parent] : []}
          onRemove={() => void patch({ parentTicketId: null })}
        />
        {!ticket.parent && parentChoices.length > 0 && (
          <TicketPicker
            label="Set parent"
            choices={parentChoices}
            onPick={(id) => void patch({ parentTicketId: id })}
          />
        )}
        <RelationList title="Children" list={ticket.children} />
        {childChoices.length > 0 && (
          <TicketPicker
            label="Add child"
            choices={childChoices}
            onPick={async (id) => {
              try {
                await api.patch(`/api/tickets/${id}`, { parentTicketId: ticket.id });
                onChanged();
              } catch (error) {
                toast(errorMessage(error), "error");
              }
            }}
          />
        )}
        <RelationList
          title="Blocked by"
          list={ticket.blockers}
          onRemove={(id) => void patch({ blockerIds: ticket.blockerIds.filter((b) => b !== id) })}
        />
        <TicketPicker
          label="Add blocker"
          choices={blockerChoices}
          onPick={(id) => void patch({ blockerIds: [...ticket.blockerIds, id] })}
        />
        <RelationList title="Blocks" list={ticket.blockedBy} />
        <RelationList
          title="Related"
          list={ticket.related}
          onRemove={(id) =>
            void patch({ relatedIds: relationIds(ticket.related).filter((r) => r !== id) })
          }
        />
        <TicketPicker
          label="Add related"
          choices={relatedChoices}
          onPick={(id) => void patch({ relatedIds: [...relationIds(ticket.related), id] })}
        />
      </section>

      <section class="side-section">
        <h3>References</h3>
        {ticket.remote && (
          <div class="remote-box">
            <div>
              <a href={ticket.remote.url} target="_blank" rel="noreferrer">
                ⇄ {ticket.remote.displayRef}
              </a>{" "}
              <span class="badge">{ticket.remote.state ?? "unknown"}</span>
            </div>
            <div class="muted small">
              Last sync {relativeTime(ticket.remote.lastSyncedAt)}
              {Date.now() - new Date(ticket.remote.lastSyncedAt).getTime() > STALE_MS && (
                <span class="badge badge-warn"> possibly stale</span>
              )}
            </div>
            <button
              type="button"
              class="button"
              disabled={refreshing.value}
              onClick={() => void refreshRemote()}
            >
              {refreshing.value ? "Refreshing…" : "Refresh from remote"}
            </button>
          </div>
        )}
        <ul class="plain-list">
          {ticket.externalReferences.map((reference) => (
            <li key={reference.id}>
              <span class="muted small">{reference.kind}</span>{" "}
              <a href={reference.url} target="_blank" rel="noreferrer">
                ↗ {reference.displayRef}
              </a>
              {reference.title ? <span class="muted"> {reference.title}</span> : null}
              <button
                type="button"
                class="chip-remove"
                aria-label={`Remove reference ${reference.kind}`}
                onClick={async () => {
                  try {
                    onChanged(
                      (await api.delete(
                        `/api/tickets/${ticket.id}/external-references/${encodeURIComponent(reference.kind)}`,
                        { ifMatch: etag ?? undefined },
                      )) as unknown as Ticket,
                    );
                  } catch (error) {
                    toast(errorMessage(error), "error");
                  }
                }}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
        <ReferenceForm ticket={ticket} etag={etag} onChanged={onChanged} />
      </section>

      <section class="side-section danger-zone">
        <button type="button" class="button button-danger" onClick={onDelete}>
          Delete ticket…
        </button>
      </section>
    </aside>
  );
}

function RelationList(props: {
  title: string;
  list: TicketRelation[];
  onRemove?: (id: number) => void;
}) {
  if (props.list.length === 0) return null;
  return (
    <div class="relation">
      <div class="relation-title">{props.title}</div>
      <ul class="plain-list">
        {props.list.map((entry) => (
          <li key={entry.id} class={entry.isResolved ? "is-resolved" : undefined}>
            <a
              href={`/tickets/${entry.id}`}
              onClick={(event) => {
                event.preventDefault();
                openTicket(entry.id);
              }}
            >
              {entry.shortRef}
            </a>{" "}
            <span class="relation-name">{entry.title}</span>
            {props.onRemove && (
              <button
                type="button"
                class="chip-remove"
                aria-label={`Remove ${props.title.toLowerCase()} ${entry.shortRef}`}
                onClick={() => props.onRemove?.(entry.id)}
              >
                ×
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
