import { useSignal } from "@preact/signals";
import { api, errorMessage } from "../api";
import { openAsks } from "../asks";
import { board, boardId, boards, loadBoards, tags, tickets } from "../board-data";
import { overlay } from "../board-state";
import { deleteBoard } from "../board-sync";
import { rememberedView } from "../filters";
import { sidebarCollapsed } from "../prefs";
import { boardUrl, navigate, route } from "../router";
import { toast } from "../toasts";
import type { Board, BoardShell, Tag, TicketSummary } from "../types";
import { offerUndo } from "../undo";
import { TagDot } from "./bits";
import { ImportBoard } from "./ImportBoard";
import { Menu } from "./Menu";
import { SignOut } from "./SignOut";

export function Sidebar() {
  const collapsed = sidebarCollapsed.value;
  return (
    <nav class={`sidebar${collapsed ? " is-collapsed" : ""}`} aria-label="Boards and tags">
      <div class="sidebar-head">
        <a
          class="brand"
          href="/"
          onClick={(event) => {
            event.preventDefault();
            navigate("/");
          }}
        >
          <img src="/favicon.svg" alt="" width="20" height="20" />
          <span>tack</span>
        </a>
        <button
          type="button"
          class="icon-button"
          aria-expanded={!collapsed}
          aria-controls="sidebar-body"
          aria-label={collapsed ? "Show sidebar" : "Hide sidebar"}
          title={collapsed ? "Show sidebar" : "Hide sidebar"}
          onClick={() => (sidebarCollapsed.value = !collapsed)}
        >
          {collapsed ? "»" : "«"}
        </button>
        {collapsed && <InboxLink compact />}
      </div>
      {!collapsed && (
        <div class="sidebar-body" id="sidebar-body">
          <InboxLink />
          <BoardList />
          {board.value && <TagList />}
          {board.value && (
            <div class="sidebar-section">
              <h2 class="sidebar-title">Board data</h2>
              <a
                class="sidebar-link"
                href={`/api/boards/${board.value.id}/export`}
                download={`${board.value.name}.tack.json`}
              >
                ⤓ Export as JSON
              </a>
              <ImportBoard />
              <button
                type="button"
                class="sidebar-link sidebar-trash"
                onClick={() => (overlay.value = { kind: "templates" })}
              >
                ▦ Templates
              </button>
            </div>
          )}
          {!board.value && (
            <div class="sidebar-section">
              <ImportBoard />
            </div>
          )}
          <div class="sidebar-section">
            <button
              type="button"
              class="sidebar-link sidebar-trash"
              onClick={() => (overlay.value = { kind: "trash" })}
            >
              ⌫ Trash
            </button>
          </div>
          <SignOut />
        </div>
      )}
    </nav>
  );
}

/** The inbox of open asks (`a`), with their count; `compact`: an icon in the folded sidebar. */
function InboxLink(props: { compact?: boolean }) {
  const count = openAsks.value.length;
  const here = route.value.name === "inbox";
  if (props.compact) {
    return (
      <a
        class="icon-button inbox-icon"
        href="/inbox"
        aria-current={here ? "page" : undefined}
        aria-label={count > 0 ? `Inbox, ${count} open` : "Inbox"}
        title="Inbox (a)"
        onClick={(event) => {
          event.preventDefault();
          navigate("/inbox");
        }}
      >
        ✉{count > 0 && <span class="count-badge count-badge-dot">{count}</span>}
      </a>
    );
  }
  return (
    <div class="sidebar-section sidebar-inbox">
      <a
        class={`sidebar-link inbox-link${here ? " is-current" : ""}`}
        href="/inbox"
        aria-current={here ? "page" : undefined}
        title="Questions from agents (a)"
        onClick={(event) => {
          event.preventDefault();
          if (window.matchMedia("(max-width: 700px)").matches) sidebarCollapsed.value = true;
          navigate("/inbox");
        }}
      >
        <span aria-hidden="true">✉</span> Inbox
        {count > 0 && (
          <span class="count-badge">
            {count}
            <span class="sr-only"> open</span>
          </span>
        )}
      </a>
    </div>
  );
}

function BoardList() {
  const creating = useSignal(false);
  const renamingId = useSignal<number | null>(null);
  const draggingId = useSignal<number | null>(null);
  const list = boards.value;

  const reorder = async (ids: number[]) => {
    const previous = boards.value;
    const byId = new Map(previous.map((entry) => [entry.id, entry]));
    boards.value = ids.map((id) => byId.get(id)).filter((entry): entry is Board => Boolean(entry));
    try {
      const answer = await api.post<{ boards: Board[] }>("/api/boards/reorder", { boardIds: ids });
      boards.value = answer.boards;
    } catch (error) {
      boards.value = previous;
      toast(errorMessage(error), "error");
    }
  };
  const shift = (id: number, delta: number) => {
    const ids = list.map((entry) => entry.id);
    const at = ids.indexOf(id);
    const to = at + delta;
    if (at < 0 || to < 0 || to >= ids.length) return;
    ids.splice(at, 1);
    ids.splice(to, 0, id);
    void reorder(ids).then(() => document.getElementById(`board-link-${id}`)?.focus());
  };

  const create = async (name: string) => {
    creating.value = false;
    if (!name.trim()) return;
    try {
      const created = await api.post<BoardShell>("/api/boards", { name });
      await loadBoards();
      navigate(boardUrl(created.board.id, "kanban"));
    } catch (error) {
      toast(errorMessage(error), "error");
    }
  };

  const rename = async (target: Board, name: string) => {
    renamingId.value = null;
    if (!name.trim() || name.trim() === target.name) return;
    try {
      const updated = await api.patch<Board>(`/api/boards/${target.id}`, { name });
      boards.value = boards.value.map((entry) => (entry.id === updated.id ? updated : entry));
      if (board.value?.id === updated.id) board.value = updated;
    } catch (error) {
      toast(errorMessage(error), "error");
    }
  };

  const remove = async (target: Board) => {
    let ticketCount: number | null = null;
    let laneCount: number | null = null;
    try {
      const [shell, list] = await Promise.all([
        api.get<BoardShell>(`/api/boards/${target.id}`),
        api.get<{ tickets: TicketSummary[] }>(`/api/boards/${target.id}/tickets?archived=all`),
      ]);
      ticketCount = list.tickets.length;
      laneCount = shell.lanes.length;
    } catch {
      // Counts are a courtesy; the confirmation still names the board.
    }
    overlay.value = {
      kind: "confirm",
      title: `Delete board “${target.name}”?`,
      message:
        ticketCount === null
          ? "The board and everything on it go to the trash (Undo brings them back)."
          : `This deletes ${ticketCount} ticket(s) with their comments and history, ${laneCount} lane(s) and its tags. Undo, or the Trash view, brings them back.`,
      action: "Delete board",
      run: async () => {
        try {
          // Off the list before navigating: home opens the last board, which was this one.
          if (await deleteBoard(target.id)) navigate("/", { replace: true });
          await loadBoards();
          void offerUndo(
            [{ kind: "board", objectId: target.id }],
            `Board “${target.name}” deleted.`,
          );
        } catch (error) {
          toast(errorMessage(error), "error");
        }
      },
    };
  };

  return (
    <div class="sidebar-section">
      <div class="sidebar-title-row">
        <h2 class="sidebar-title">Boards</h2>
        <button
          type="button"
          class="icon-button"
          aria-label="New board"
          title="New board"
          onClick={() => (creating.value = true)}
        >
          +
        </button>
      </div>
      <ul class="board-list">
        {list.map((entry) => (
          <li
            key={entry.id}
            class={`board-item${entry.id === boardId.value ? " is-current" : ""}${draggingId.value === entry.id ? " is-dragging" : ""}`}
            draggable={renamingId.value !== entry.id}
            onDragStart={(event) => {
              draggingId.value = entry.id;
              event.dataTransfer?.setData("text/plain", String(entry.id));
            }}
            onDragEnd={() => (draggingId.value = null)}
            onDragOver={(event) => event.preventDefault()}
            onDrop={(event) => {
              event.preventDefault();
              const moving = draggingId.value;
              draggingId.value = null;
              if (moving === null || moving === entry.id) return;
              const ids = list.map((b) => b.id).filter((id) => id !== moving);
              ids.splice(
                ids.indexOf(entry.id) +
                  (list.findIndex((b) => b.id === moving) < list.findIndex((b) => b.id === entry.id)
                    ? 1
                    : 0),
                0,
                moving,
              );
              void reorder(ids);
            }}
          >
            {renamingId.value === entry.id ? (
              <input
                ref={(element) => element?.focus()}
                class="inline-input"
                aria-label="Board name"
                defaultValue={entry.name}
                onKeyDown={(event) => {
                  if (event.key === "Enter")
                    void rename(entry, (event.target as HTMLInputElement).value);
                  if (event.key === "Escape") renamingId.value = null;
                }}
                onBlur={(event) => {
                  if (renamingId.value === entry.id)
                    void rename(entry, (event.target as HTMLInputElement).value);
                }}
              />
            ) : (
              <a
                id={`board-link-${entry.id}`}
                class="board-link"
                href={boardUrl(entry.id, "kanban")}
                aria-current={entry.id === boardId.value ? "page" : undefined}
                title="Alt+↑/↓ reorders, F2 renames"
                onClick={(event) => {
                  event.preventDefault();
                  if (window.matchMedia("(max-width: 700px)").matches)
                    sidebarCollapsed.value = true;
                  const remembered = rememberedView(entry.id);
                  navigate(boardUrl(entry.id, remembered.view, remembered.search));
                }}
                onDblClick={() => (renamingId.value = entry.id)}
                onKeyDown={(event) => {
                  if (event.altKey && event.key === "ArrowUp") {
                    event.preventDefault();
                    shift(entry.id, -1);
                  } else if (event.altKey && event.key === "ArrowDown") {
                    event.preventDefault();
                    shift(entry.id, 1);
                  } else if (event.key === "F2") {
                    event.preventDefault();
                    renamingId.value = entry.id;
                  }
                }}
              >
                {entry.name}
              </a>
            )}
            <Menu
              label={`Board ${entry.name} actions`}
              items={[
                { label: "Rename", run: () => (renamingId.value = entry.id) },
                {
                  label: "Move up",
                  run: () => shift(entry.id, -1),
                  disabled: list[0]?.id === entry.id,
                },
                {
                  label: "Move down",
                  run: () => shift(entry.id, 1),
                  disabled: list.at(-1)?.id === entry.id,
                },
                { label: "Delete board…", run: () => remove(entry), danger: true },
              ]}
            />
          </li>
        ))}
      </ul>
      {creating.value && (
        <input
          ref={(element) => element?.focus()}
          class="inline-input"
          aria-label="New board name"
          placeholder="Board name, then Enter"
          onKeyDown={(event) => {
            if (event.key === "Enter") void create((event.target as HTMLInputElement).value);
            if (event.key === "Escape") creating.value = false;
          }}
          onBlur={(event) => {
            if (creating.value) void create((event.target as HTMLInputElement).value);
          }}
        />
      )}
    </div>
  );
}

function TagList() {
  const creating = useSignal(false);
  const editingId = useSignal<number | null>(null);
  const list = [...tags.value].sort((a, b) => a.name.localeCompare(b.name));
  const counts = new Map<number, number>();
  for (const ticket of tickets.value.values()) {
    for (const tag of ticket.tags) counts.set(tag.id, (counts.get(tag.id) ?? 0) + 1);
  }

  const create = async (name: string) => {
    creating.value = false;
    if (!name.trim()) return;
    try {
      const tag = await api.post<Tag>(`/api/boards/${boardId.value}/tags`, { name });
      tags.value = [...tags.value, tag];
    } catch (error) {
      toast(errorMessage(error), "error");
    }
  };
  const update = async (tag: Tag, changes: { name?: string; color?: string }) => {
    try {
      const updated = await api.patch<Tag>(`/api/tags/${tag.id}`, changes);
      tags.value = tags.value.map((entry) => (entry.id === tag.id ? updated : entry));
    } catch (error) {
      toast(errorMessage(error), "error");
    }
  };
  const remove = (tag: Tag) => {
    overlay.value = {
      kind: "confirm",
      title: `Delete tag “${tag.name}”?`,
      message: `It is removed from ${counts.get(tag.id) ?? 0} ticket(s). The tickets stay.`,
      action: "Delete tag",
      run: async () => {
        try {
          await api.delete(`/api/tags/${tag.id}`);
          tags.value = tags.value.filter((entry) => entry.id !== tag.id);
          void offerUndo([{ kind: "tag", objectId: tag.id }], `Tag “${tag.name}” deleted.`);
        } catch (error) {
          toast(errorMessage(error), "error");
        }
      },
    };
  };

  return (
    <div class="sidebar-section">
      <div class="sidebar-title-row">
        <h2 class="sidebar-title">Tags</h2>
        <button
          type="button"
          class="icon-button"
          aria-label="New tag"
          title="New tag"
          onClick={() => (creating.value = true)}
        >
          +
        </button>
      </div>
      <ul class="tag-list">
        {list.map((tag) => (
          <li key={tag.id} class="tag-item">
            <label class="color-swatch" title="Change colour">
              <TagDot color={tag.color} />
              <input
                type="color"
                class="sr-only"
                aria-label={`Colour of ${tag.name}`}
                value={normalizeHex(tag.color)}
                onChange={(event) =>
                  void update(tag, { color: (event.target as HTMLInputElement).value })
                }
              />
            </label>
            {editingId.value === tag.id ? (
              <input
                ref={(element) => element?.focus()}
                class="inline-input"
                aria-label="Tag name"
                defaultValue={tag.name}
                onKeyDown={(event) => {
                  if (event.key === "Enter") {
                    editingId.value = null;
                    void update(tag, { name: (event.target as HTMLInputElement).value });
                  }
                  if (event.key === "Escape") editingId.value = null;
                }}
                onBlur={(event) => {
                  if (editingId.value !== tag.id) return;
                  editingId.value = null;
                  const name = (event.target as HTMLInputElement).value;
                  if (name.trim() && name.trim() !== tag.name) void update(tag, { name });
                }}
              />
            ) : (
              <span class="tag-item-name" title={tag.name}>
                {tag.name}
              </span>
            )}
            <span class="tag-count">{counts.get(tag.id) ?? 0}</span>
            <Menu
              label={`Tag ${tag.name} actions`}
              items={[
                { label: "Rename", run: () => (editingId.value = tag.id) },
                {
                  label: "No colour",
                  run: () => update(tag, { color: "" }),
                  disabled: tag.color === "",
                },
                { label: "Delete tag…", run: () => remove(tag), danger: true },
              ]}
            />
          </li>
        ))}
      </ul>
      {creating.value && (
        <input
          ref={(element) => element?.focus()}
          class="inline-input"
          aria-label="New tag name"
          placeholder="Tag name, then Enter"
          onKeyDown={(event) => {
            if (event.key === "Enter") void create((event.target as HTMLInputElement).value);
            if (event.key === "Escape") creating.value = false;
          }}
          onBlur={(event) => {
            if (creating.value) void create((event.target as HTMLInputElement).value);
          }}
        />
      )}
    </div>
  );
}

/** `<input type=color>` wants #rrggbb. */
function normalizeHex(color: string): string {
  if (/^#[0-9a-f]{6}$/i.test(color)) return color.toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(color);
  if (short)
    return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase();
  return "#6b7280";
}
