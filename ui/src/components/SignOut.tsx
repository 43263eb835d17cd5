import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api, errorMessage } from "../api";
import { toast } from "../toasts";
import type { SessionState } from "../types";

/**
 * Sign-out, shown when the page runs on a session cookie (remote access, docs/api.md, "Access
 * tokens"). The cookie is HttpOnly, so the page asks the server whether it has one. Signing out
 * ends the session on the server; the reload then gets the sign-in page.
 */
export function SignOut() {
  const session = useSignal<SessionState | null>(null);
  useEffect(() => {
    api.get<SessionState>("/api/session").then(
      (state) => (session.value = state),
      () => {},
    );
  }, []);
  if (!session.value?.signedIn) return null;
  return (
    <div class="sidebar-section">
      <h2 class="sidebar-title">Session</h2>
      {session.value.readOnly && <p class="muted">Read-only token: changes are refused.</p>}
      <button
        type="button"
        class="sidebar-link"
        onClick={async () => {
          try {
            await api.delete("/api/session");
            location.reload();
          } catch (error) {
            toast(errorMessage(error), "error");
          }
        }}
      >
        ⎋ Sign out
      </button>
    </div>
  );
}
