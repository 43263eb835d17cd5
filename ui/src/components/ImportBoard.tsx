import { useSignal } from "@preact/signals";
import { loadBoards } from "../board-data";
import { boardUrl, navigate } from "../router";
import { toast } from "../toasts";
import type { BoardShell } from "../types";

/** Board import: pick an export file, upload it with progress, then open the new board. */
export function ImportBoard() {
  const progress = useSignal<number | null>(null);
  const upload = (file: File) => {
    progress.value = 0;
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/boards/import");
    xhr.setRequestHeader("content-type", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) progress.value = Math.round((event.loaded / event.total) * 100);
    };
    xhr.onerror = () => {
      progress.value = null;
      toast("Import failed: tack is not reachable", "error");
    };
    xhr.onload = async () => {
      progress.value = null;
      let body: { error?: string } & Partial<BoardShell> = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Reported below.
      }
      if (xhr.status !== 201 || !body.board) {
        toast(`Import failed: ${body.error ?? `status ${xhr.status}`}`, "error");
        return;
      }
      toast(`Imported “${body.board.name}”.`);
      await loadBoards();
      navigate(boardUrl(body.board.id, "kanban"));
    };
    xhr.send(file);
  };
  return (
    <label class="sidebar-link file-pick">
      ⤒ Import board…
      <input
        type="file"
        accept="application/json,.json"
        class="sr-only"
        aria-label="Import a board from a JSON export"
        onChange={(event) => {
          const input = event.target as HTMLInputElement;
          const file = input.files?.[0];
          input.value = "";
          if (file) upload(file);
        }}
      />
      {progress.value !== null && (
        <progress max={100} value={progress.value} aria-label="Import progress">
          {progress.value}%
        </progress>
      )}
    </label>
  );
}
