import { useSignal } from "@preact/signals";
import { useRef } from "preact/hooks";
import { api, errorMessage } from "../api";
import { boardId, boards, lanes, tickets } from "../board-data";
import { dropAt, overlay, shownInLane } from "../board-state";
import { removing } from "../local-changes";
import { putTicket, removeTickets } from "../ticket-writes";
import { toast } from "../toasts";
import type { BoardShell, Ticket } from "../types";
import { Modal } from "./Modal";
import { RemoteImport } from "./RemoteImport";
import { TemplatesLoader } from "./TemplatesLoader";
import { TrashView } from "./TrashView";

export function Overlays() {
  const current = overlay.value;
  if (!current) return null;
  const close = () => (overlay.value = null);
  switch (current.kind) {
    case "help":
      return <Help onClose={close} />;
    case "confirm":
      return (
        <Modal label={current.title} class="modal-small" onClose={close}>
          <h2 class="modal-title">{current.title}</h2>
          <p>{current.message}</p>
          <div class="modal-actions">
            <button type="button" class="button" onClick={close}>
              Cancel
            </button>
            <button
              type="button"
              class="button button-danger"
              onClick={() => {
                close();
                current.run();
              }}
            >
              {current.action}
            </button>
          </div>
        </Modal>
      );
    case "move":
      return <MoveTo ticketId={current.ticketId} onClose={close} />;
    case "import":
      return <RemoteImport onClose={close} />;
    case "trash":
      return <TrashView boardId={boardId.value} onClose={close} />;
    case "templates":
      return <TemplatesLoader fromTicketIds={current.fromTicketIds} onClose={close} />;
  }
}

const SHORTCUTS: [string, string][] = [
  ["?", "Show this help"],
  ["/", "Search"],
  ["← ↓ ↑ → or h j k l", "Move focus between cards and lanes"],
  ["Enter", "Open the focused ticket"],
  ["Esc", "Close the dialog or cancel"],
  ["e", "Edit the focused ticket's title"],
  ["n", "New ticket in the focused lane"],
  ["x", "Select / unselect the focused ticket"],
  ["1 – 4", "Priority: low, medium, high, urgent"],
  ["m", "Move to… (lane, position, board)"],
  ["Space", "Lift the card; arrows move it; Space drops; Esc cancels"],
  ["Shift + ← / →", "Move the card one lane over"],
  ["Ctrl/⌘ + Enter", "Save the body (in the editor)"],
  ["Ctrl/⌘ + B / I / K", "Bold, italic, link (in the editor)"],
  ["Alt + ↑ / ↓", "Reorder boards (on a board in the sidebar)"],
  ["u", "Undo the last delete (it comes back from the trash)"],
  ["Shift + T", "Open the trash: restore or erase what was deleted"],
  ["i", "Insights of the board (flow, cycle time, aging); again: back to the board"],
  ["a", "Inbox: questions agents ask you, from every board; again: back to the board"],
];

function Help(props: { onClose: () => void }) {
  return (
    <Modal label="Keyboard shortcuts" class="modal-small" onClose={props.onClose}>
      <h2 class="modal-title">Keyboard shortcuts</h2>
      <dl class="shortcuts">
        {SHORTCUTS.map(([keys, what]) => (
          <div key={keys} class="shortcut">
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <p class="muted">Shortcuts never fire while you type in a field.</p>
      <div class="modal-actions">
        <button type="button" class="button button-primary" onClick={props.onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}

/** "Move to…": lane and position on this board, or another board. The no-drag path. */
export function MoveTo(props: { ticketId: number; onClose: () => void }) {
  const ticket = tickets.value.get(props.ticketId);
  const targetBoard = useSignal<number>(boardId.value ?? 0);
  const targetShell = useSignal<BoardShell | null>(null);
  const laneId = useSignal<number>(ticket?.laneId ?? lanes.value[0]?.id ?? 0);
  const position = useSignal<"top" | "bottom" | "keep">("keep");
  const busy = useSignal(false);
  const first = useRef<HTMLSelectElement>(null);
  if (!ticket) return null;
  const otherBoard = targetBoard.value !== boardId.value;
  const laneOptions = otherBoard ? (targetShell.value?.lanes ?? []) : lanes.value;

  const submit = async () => {
    busy.value = true;
    try {
      if (otherBoard) {
        const moved = await removing([ticket.id], () =>
          api.post<Ticket>(`/api/tickets/${ticket.id}/move`, {
            boardId: targetBoard.value,
            laneId: laneId.value,
          }),
        );
        removeTickets([moved.id]);
        toast(`${ticket.shortRef} moved to ${targetShell.value?.board.name ?? "another board"}.`);
      } else {
        const length = shownInLane(laneId.value, ticket.id).length;
        const index =
          position.value === "top"
            ? 0
            : position.value === "bottom" || laneId.value !== ticket.laneId
              ? length
              : shownInLane(ticket.laneId).findIndex((entry) => entry.id === ticket.id);
        await dropAt(ticket.id, laneId.value, Math.max(0, index));
      }
      props.onClose();
    } catch (error) {
      toast(errorMessage(error), "error");
    } finally {
      busy.value = false;
    }
  };

  return (
    <Modal label={`Move ${ticket.shortRef}`} class="modal-small" onClose={props.onClose}>
      <h2 class="modal-title">
        Move {ticket.shortRef} <span class="muted">{ticket.title}</span>
      </h2>
      <form
        class="form-grid"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <label>
          Board
          <select
            ref={first}
            value={targetBoard.value}
            onChange={async (event) => {
              const id = Number((event.target as HTMLSelectElement).value);
              targetBoard.value = id;
              if (id !== boardId.value) {
                targetShell.value = await api.get<BoardShell>(`/api/boards/${id}`);
                laneId.value = targetShell.value.lanes[0]?.id ?? 0;
              } else {
                laneId.value = ticket.laneId;
              }
            }}
          >
            {boards.value.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Lane
          <select
            value={laneId.value}
            onChange={(event) => (laneId.value = Number((event.target as HTMLSelectElement).value))}
          >
            {laneOptions.map((lane) => (
              <option key={lane.id} value={lane.id}>
                {lane.name}
              </option>
            ))}
          </select>
        </label>
        {!otherBoard && (
          <label>
            Position
            <select
              value={position.value}
              onChange={(event) =>
                (position.value = (event.target as HTMLSelectElement).value as "top")
              }
            >
              <option value="keep">Keep (end when changing lane)</option>
              <option value="top">Top</option>
              <option value="bottom">Bottom</option>
            </select>
          </label>
        )}
        {otherBoard && (
          <p class="muted">
            Moving to another board clears parent, child, blocker and related links.
          </p>
        )}
        <div class="modal-actions">
          <button type="button" class="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" class="button button-primary" disabled={busy.value}>
            Move
          </button>
        </div>
      </form>
    </Modal>
  );
}

export { putTicket };
