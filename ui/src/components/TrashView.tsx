import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api, errorMessage } from "../api";
import { boards } from "../board-data";
import { toast } from "../toasts";
import type { TrashItem } from "../types";
import { restoreEntry } from "../undo";
import { Modal } from "./Modal";

/**
 * The trash (docs/api.md, "The trash"): what was deleted and can still come back, of the open board
 * or of all boards, each with Restore and Erase. A dialog, so it is reached from anywhere (the
 * sidebar's Trash button) and every control is a button in tab order.
 */
export function TrashView(props: { boardId: number | null; onClose: () => void }) {
  const scope = useSignal<"board" | "all">(props.boardId === null ? "all" : "board");
  const items = useSignal<TrashItem[] | null>(null);
  const busy = useSignal(false);

  const load = async () => {
    const query =
      scope.value === "board" && props.boardId !== null ? `?boardId=${props.boardId}` : "";
    try {
      items.value = (await api.get<{ items: TrashItem[] }>(`/api/trash${query}`)).items;
    } catch (error) {
      toast(errorMessage(error), "error");
      items.value = [];
    }
  };
  useEffect(() => {
    void load();
  }, [scope.value]);

  const act = async (item: TrashItem, what: "restore" | "erase") => {
    busy.value = true;
    try {
      if (what === "restore") await restoreEntry(item.id);
      else await api.delete(`/api/trash/${item.id}`);
      toast(`${what === "restore" ? "Restored" : "Erased"} ${item.kind} “${item.label}”.`);
    } catch (error) {
      toast(errorMessage(error), "error");
    } finally {
      busy.value = false;
      await load();
    }
  };

  const boardName = (id: number) => boards.value.find((board) => board.id === id)?.name;
  const list = items.value;
  return (
    <Modal label="Trash" class="modal-trash" onClose={props.onClose}>
      <h2 class="modal-title">Trash</h2>
      <p class="muted">
        Deleted boards, lanes, tags, tickets and comments stay here until they expire, then they are
        erased for good.
      </p>
      {props.boardId !== null && (
        <div class="trash-scope" role="group" aria-label="Show">
          <button
            type="button"
            class={`button ${scope.value === "board" ? "button-primary" : ""}`}
            aria-pressed={scope.value === "board"}
            onClick={() => (scope.value = "board")}
          >
            This board
          </button>
          <button
            type="button"
            class={`button ${scope.value === "all" ? "button-primary" : ""}`}
            aria-pressed={scope.value === "all"}
            onClick={() => (scope.value = "all")}
          >
            All boards
          </button>
        </div>
      )}
      {list === null ? (
        <p class="muted">Loading…</p>
      ) : list.length === 0 ? (
        <p class="trash-empty">The trash is empty.</p>
      ) : (
        <ul class="trash-list">
          {list.map((item) => (
            <li key={item.id} class="trash-item" data-trash-id={item.id}>
              <div class="trash-what">
                <span class="trash-kind">{item.kind}</span>
                <span class="trash-label">{item.label || "(no text)"}</span>
                <span class="muted small">
                  {item.kind === "board"
                    ? ""
                    : `${boardName(item.boardId) ?? `board ${item.boardId}`} · `}
                  deleted {new Date(item.deletedAt).toLocaleString()} · until{" "}
                  {new Date(item.expiresAt).toLocaleDateString()}
                </span>
              </div>
              <div class="trash-actions">
                <button
                  type="button"
                  class="button"
                  disabled={busy.value}
                  aria-label={`Restore ${item.kind} ${item.label}`}
                  onClick={() => void act(item, "restore")}
                >
                  Restore
                </button>
                <button
                  type="button"
                  class="button button-danger"
                  disabled={busy.value}
                  aria-label={`Erase ${item.kind} ${item.label} for good`}
                  onClick={() => {
                    if (window.confirm(`Erase “${item.label}” for good? This cannot be undone.`)) {
                      void act(item, "erase");
                    }
                  }}
                >
                  Erase
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <div class="modal-actions">
        <button type="button" class="button button-primary" onClick={props.onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
