import { CredentialStore } from "../../providers/credentials.js";
import { getProvider } from "../../providers/providers.js";
import type { Stores } from "../../storage/index.js";
import type { ActivityRecorder } from "../activity.js";
import type { BoardService } from "../boards/boards.js";
import { ticketLanes } from "../tickets/ticket-ordering.js";
import type { TicketService } from "../tickets/tickets.js";
import type { Transact } from "../transaction.js";
import { commentPushService } from "./comment-push.js";
import { remoteDiagnosticsService } from "./remote-diagnostics.js";
import { remoteImportService } from "./remote-import.js";
import { remoteRefreshService } from "./remote-refresh.js";
import type { RemoteAccess } from "./remote-tracking.js";

/** No credential at all: nothing remote is ever contacted (the default outside server.ts). */
export const NO_REMOTE_ACCESS: RemoteAccess = {
  credentials: new CredentialStore(),
  provider: (id) => getProvider(id),
};

/** Wires the remote-tracking modules (services.ts stays a short list of families). */
export function createRemoteServices(
  stores: Stores,
  deps: {
    boards: Pick<BoardService, "require">;
    tickets: TicketService;
    activity: ActivityRecorder;
    remote: RemoteAccess;
  },
  transact: Transact,
) {
  const { boards, tickets, activity, remote } = deps;
  const lanes = ticketLanes(stores);
  return {
    remoteImport: remoteImportService(
      stores,
      { boards, lanes, tickets, activity, remote },
      transact,
    ),
    remoteRefresh: remoteRefreshService(stores, { tickets, activity, remote }, transact),
    commentPush: commentPushService(stores, { tickets, activity, remote }, transact),
    remoteDiagnostics: remoteDiagnosticsService(remote),
  };
}
