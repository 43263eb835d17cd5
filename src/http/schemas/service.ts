import { Type } from "@sinclair/typebox";

// Answers about the service and the request rather than the board's resources. Named here (not
// inline in their routes) so the web UI can type them from the same schema (ui/src/types.ts).

/** `GET /api/meta`: who answers, and which remote providers have a credential (never the credential). */
export const ServiceMeta = Type.Object({
  name: Type.String(),
  version: Type.String(),
  remoteProviders: Type.Array(Type.Object({ id: Type.String(), hasCredential: Type.Boolean() })),
});

/** `GET /api/session`: whether this request came with a session cookie, and its scope. */
export const SessionState = Type.Object({
  signedIn: Type.Boolean({ description: "a usable session cookie was sent" }),
  readOnly: Type.Boolean({ description: "the token or session may only read" }),
});
