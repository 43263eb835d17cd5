import { streamMessages, streamState } from "./board-data";
import { boardDeletedHere, forgetRemovedHere, notRemovedHere } from "./local-changes";

// The open board's event stream (docs/api.md, "The board change stream"): one EventSource, reopened after
// the server refused or closed it. What a message means for the page's copy is board-sync.ts's
// business; this module only says which tickets a message names.

export interface StreamListener {
  /** Tickets changed: the ids a message named (`[]`: a lane or tag), or null: unknown, all. */
  changed(ticketIds: number[] | null): void;
  /** The board was deleted by someone else. */
  boardDeleted(): void;
}

let source: EventSource | null = null;

/**
 * Follows board `id`'s stream. `missedChanges`: this replaces a stream the server refused or
 * closed with an error status; a new EventSource sends no `Last-Event-ID`, so the server cannot
 * tell it what it missed, and `changed(null)` asks for everything once it opens.
 */
export function connectStream(id: number, listener: StreamListener, missedChanges = false): void {
  disconnectStream();
  // Marks wait for the old stream's messages, which this one never sends (another board, or
  // missed while closed).
  forgetRemovedHere();
  streamState.value = "connecting";
  const stream = new EventSource(`/api/boards/${id}/events`);
  source = stream;
  let wasOffline = missedChanges;
  stream.onopen = () => {
    streamState.value = "live";
    // After a reconnect (server restarted, stream refused) changes may have been missed.
    if (wasOffline) listener.changed(null);
    wasOffline = false;
  };
  stream.onerror = () => {
    streamState.value = "offline";
    wasOffline = true;
    // EventSource retries by itself unless the server answered with an error status.
    if (stream.readyState === EventSource.CLOSED && source === stream) {
      setTimeout(() => {
        if (source === stream) connectStream(id, listener, true);
      }, 2000);
    }
  };
  stream.onmessage = (message) => {
    streamMessages.value++;
    let data: { event?: string; ticketIds?: unknown } = {};
    try {
      data = JSON.parse(message.data);
    } catch {
      return;
    }
    if (data.event === "board_deleted") {
      // Deleted by this page: its answer closes the board. The stream is closed now, so that
      // EventSource does not retry a board that is gone (a 404 in the console).
      if (boardDeletedHere(id)) disconnectStream();
      else listener.boardDeleted();
      return;
    }
    const ids = Array.isArray(data.ticketIds)
      ? notRemovedHere(data.ticketIds.filter((value): value is number => typeof value === "number"))
      : null;
    listener.changed(ids);
  };
}

export function disconnectStream(): void {
  source?.close();
  source = null;
}
