import { useSignal } from "@preact/signals";
import { api, errorMessage } from "../api";
import { boardId, boards, lanes, tickets } from "../board-data";
import { overlay, selection } from "../board-state";
import { refresh } from "../board-sync";
import { removing } from "../local-changes";
import { putTickets, removeTickets } from "../ticket-writes";
import { announce, toast } from "../toasts";
import type { BoardShell, TicketSummary } from "../types";
import { offerUndo } from "../undo";

/** Actions on the selected tickets (x on a card or row, checkboxes in the list). */
export function BulkBar() {
  const targetBoard = useSignal<{ id: number; shell: BoardShell } | null>(null);
  const ids = [...selection.value].filter((id) => tickets.value.has(id));
  if (ids.length === 0) return null;
  const base = `/api/boards/${boardId.value}/tickets`;

  const run = async (label: string, action: () => Promise<void>) => {
    try {
      await action();
      announce(`${label}: ${ids.length} ticket(s).`);
      toast(`${label}: ${ids.length} ticket(s).`);
    } catch (error) {
      toast(`${label} failed: ${errorMessage(error)}`, "error");
      void refresh(null);
    }
  };
  const apply = (path: string, body: Record<string, unknown>, label: string) =>
    run(label, async () => {
      const answer = await api.post<{ tickets: TicketSummary[] }>(`${base}/${path}`, {
        ticketIds: ids,
        ...body,
      });
      putTickets(answer.tickets);
    });

  return (
    <div class="bulk-bar" role="region" aria-label="Selected tickets">
      <strong>{ids.length} selected</strong>
      <button
        type="button"
        class="button"
        onClick={() => apply("bulk-complete", { isResolved: true }, "Resolved")}
      >
        Resolve
      </button>
      <button
        type="button"
        class="button"
        onClick={() => apply("bulk-complete", { isResolved: false }, "Reopened")}
      >
        Reopen
      </button>
      <select
        aria-label="Move selected to lane"
        value=""
        onChange={(event) => {
          const name = (event.target as HTMLSelectElement).value;
          if (name) void apply("bulk-transition", { laneName: name }, `Moved to ${name}`);
        }}
      >
        <option value="">Move to lane…</option>
        {lanes.value.map((lane) => (
          <option key={lane.id} value={lane.name}>
            {lane.name}
          </option>
        ))}
      </select>
      <select
        aria-label="Move selected to board"
        value={targetBoard.value?.id ?? ""}
        onChange={async (event) => {
          const id = Number((event.target as HTMLSelectElement).value);
          if (!id) {
            targetBoard.value = null;
            return;
          }
          try {
            targetBoard.value = { id, shell: await api.get<BoardShell>(`/api/boards/${id}`) };
          } catch (error) {
            toast(errorMessage(error), "error");
          }
        }}
      >
        <option value="">Move to board…</option>
        {boards.value
          .filter((entry) => entry.id !== boardId.value)
          .map((entry) => (
            <option key={entry.id} value={entry.id}>
              {entry.name}
            </option>
          ))}
      </select>
      {targetBoard.value && (
        <select
          aria-label="Lane on the target board"
          value=""
          onChange={(event) => {
            const laneId = Number((event.target as HTMLSelectElement).value);
            const target = targetBoard.value;
            if (!laneId || !target) return;
            void run(`Moved to ${target.shell.board.name}`, async () => {
              await removing(ids, () =>
                api.post(`${base}/bulk-move`, { ticketIds: ids, boardId: target.id, laneId }),
              );
              removeTickets(ids);
              selection.value = new Set();
              targetBoard.value = null;
            });
          }}
        >
          <option value="">Lane…</option>
          {targetBoard.value.shell.lanes.map((lane) => (
            <option key={lane.id} value={lane.id}>
              {lane.name}
            </option>
          ))}
        </select>
      )}
      <button
        type="button"
        class="button"
        onClick={() => apply("bulk-archive", { isArchived: true }, "Archived")}
      >
        Archive
      </button>
      <button
        type="button"
        class="button"
        onClick={() => apply("bulk-archive", { isArchived: false }, "Restored")}
      >
        Restore
      </button>
      <button
        type="button"
        class="button"
        onClick={() => (overlay.value = { kind: "templates", fromTicketIds: ids })}
      >
        Save as template…
      </button>
      <button
        type="button"
        class="button button-danger"
        onClick={() => {
          overlay.value = {
            kind: "confirm",
            title: `Delete ${ids.length} ticket(s)?`,
            message:
              "Their comments and relations go with them to the trash (Undo brings them back).",
            action: "Delete",
            run: async () => {
              const failed: string[] = [];
              const deleted: number[] = [];
              for (const id of ids) {
                try {
                  await removing([id], () => api.delete(`/api/tickets/${id}`));
                  deleted.push(id);
                } catch (error) {
                  failed.push(`#${id}: ${errorMessage(error)}`);
                }
              }
              removeTickets(ids);
              selection.value = new Set();
              announce(`Deleted: ${deleted.length} ticket(s).`);
              if (failed.length > 0) {
                toast(`Delete failed: ${failed.join("; ")}`, "error");
                void refresh(null);
              }
              if (deleted.length > 0) {
                await offerUndo(
                  deleted.map((objectId) => ({ kind: "ticket" as const, objectId })),
                  `Deleted: ${deleted.length} ticket(s).`,
                );
              }
            },
          };
        }}
      >
        Delete…
      </button>
      <button
        type="button"
        class="button button-ghost"
        onClick={() => (selection.value = new Set())}
      >
        Clear
      </button>
    </div>
  );
}
