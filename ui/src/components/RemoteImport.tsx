import { useSignal } from "@preact/signals";
import { api, errorMessage } from "../api";
import { boardId, lanes, meta } from "../board-data";
import { openTicket } from "../navigation";
import { putTicket } from "../ticket-writes";
import { toast } from "../toasts";
import type { ImportPreview, Ticket } from "../types";
import { Modal } from "./Modal";

/** Import a remote issue: provider, URL, lane, optional backlink; preview before importing. */
export function RemoteImport(props: { onClose: () => void }) {
  const providers = (meta.value?.remoteProviders ?? []).filter(
    (provider) => provider.hasCredential,
  );
  const provider = useSignal(providers[0]?.id ?? "");
  const url = useSignal("");
  const laneId = useSignal(lanes.value[0]?.id ?? 0);
  const backlink = useSignal(false);
  const backlinkUrl = useSignal("");
  const preview = useSignal<ImportPreview | null>(null);
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);

  const body = () => ({
    provider: provider.value,
    url: url.value.trim(),
    laneId: laneId.value,
    ...(backlink.value ? { postBacklinkComment: true } : {}),
    ...(backlink.value && backlinkUrl.value.trim()
      ? { backlinkUrl: backlinkUrl.value.trim() }
      : {}),
  });
  const doPreview = async () => {
    busy.value = true;
    error.value = null;
    preview.value = null;
    try {
      preview.value = await api.post<ImportPreview>(
        `/api/boards/${boardId.value}/remote-import/preview`,
        body(),
      );
    } catch (failure) {
      error.value = errorMessage(failure);
    } finally {
      busy.value = false;
    }
  };
  const doImport = async () => {
    busy.value = true;
    error.value = null;
    try {
      const ticket = await api.post<Ticket>(`/api/boards/${boardId.value}/remote-import`, body());
      putTicket(ticket);
      toast(`Imported ${ticket.remote?.displayRef ?? ""} as ${ticket.shortRef}.`);
      props.onClose();
      openTicket(ticket.id);
    } catch (failure) {
      error.value = errorMessage(failure);
    } finally {
      busy.value = false;
    }
  };

  return (
    <Modal label="Import a remote issue" class="modal-small" onClose={props.onClose}>
      <h2 class="modal-title">Import a remote issue</h2>
      <form
        class="form-grid"
        onSubmit={(event) => {
          event.preventDefault();
          void (preview.value && !preview.value.duplicate ? doImport() : doPreview());
        }}
      >
        <label>
          Provider
          <select
            value={provider.value}
            onChange={(event) => (provider.value = (event.target as HTMLSelectElement).value)}
          >
            {providers.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.id}
              </option>
            ))}
          </select>
        </label>
        <label>
          Issue URL
          <input
            type="url"
            required
            placeholder="https://github.com/owner/repo/issues/1"
            value={url.value}
            onInput={(event) => {
              url.value = (event.target as HTMLInputElement).value;
              preview.value = null;
            }}
          />
        </label>
        <label>
          Lane
          <select
            value={laneId.value}
            onChange={(event) => (laneId.value = Number((event.target as HTMLSelectElement).value))}
          >
            {lanes.value.map((lane) => (
              <option key={lane.id} value={lane.id}>
                {lane.name}
              </option>
            ))}
          </select>
        </label>
        <label class="check">
          <input
            type="checkbox"
            checked={backlink.value}
            onChange={(event) => (backlink.value = (event.target as HTMLInputElement).checked)}
          />
          Post a backlink comment on the issue
        </label>
        {backlink.value && (
          <label>
            Backlink URL (optional)
            <input
              type="url"
              value={backlinkUrl.value}
              onInput={(event) => (backlinkUrl.value = (event.target as HTMLInputElement).value)}
            />
          </label>
        )}
        {error.value && (
          <p class="form-error" role="alert">
            {error.value}
          </p>
        )}
        {preview.value && (
          <div class="preview-box" aria-live="polite">
            <div>
              <a href={preview.value.url} target="_blank" rel="noreferrer">
                {preview.value.displayRef}
              </a>{" "}
              <span class="badge">{preview.value.state ?? "unknown state"}</span>
            </div>
            <strong>{preview.value.title}</strong>
            {preview.value.duplicate && preview.value.existingTicketId !== null && (
              <p>
                Already imported as{" "}
                <a
                  href={`/tickets/${preview.value.existingTicketId}`}
                  onClick={(event) => {
                    event.preventDefault();
                    props.onClose();
                    openTicket(preview.value?.existingTicketId ?? 0);
                  }}
                >
                  {preview.value.existingTicketRef}
                </a>
                .
              </p>
            )}
          </div>
        )}
        <div class="modal-actions">
          <button type="button" class="button" onClick={props.onClose}>
            Cancel
          </button>
          <button
            type="button"
            class="button"
            disabled={busy.value || !url.value.trim()}
            onClick={() => void doPreview()}
          >
            Preview
          </button>
          <button
            type="button"
            class="button button-primary"
            disabled={busy.value || !preview.value || preview.value.duplicate}
            onClick={() => void doImport()}
          >
            Import
          </button>
        </div>
      </form>
    </Modal>
  );
}
