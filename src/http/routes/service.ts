import { Type } from "@sinclair/typebox";
import type { RemoteProviderId } from "../../providers/types.js";
import { errors } from "../schemas/common.js";
import type { TackApp } from "../types.js";

export interface ServiceInfo {
  name: string;
  version: string;
  /** False when the database cannot answer; health then reports 500. */
  databaseUsable: () => boolean;
  remoteProviders: () => Array<{ id: RemoteProviderId; hasCredential: boolean }>;
}

export function serviceRoutes(app: TackApp, info: ServiceInfo): void {
  app.get(
    "/api/health",
    {
      schema: {
        operationId: "getHealth",
        tags: ["service"],
        response: { 200: Type.Object({ ok: Type.Boolean() }), ...errors(400, 500) },
      },
    },
    async (_request, reply) => {
      if (!info.databaseUsable()) return reply.code(500).send({ error: "database unavailable" });
      return { ok: true };
    },
  );

  app.get(
    "/api/meta",
    {
      schema: {
        operationId: "getMeta",
        tags: ["service"],
        response: {
          200: Type.Object({
            name: Type.String(),
            version: Type.String(),
            remoteProviders: Type.Array(
              Type.Object({ id: Type.String(), hasCredential: Type.Boolean() }),
            ),
          }),
          ...errors(400, 500),
        },
      },
    },
    async () => ({
      name: info.name,
      version: info.version,
      remoteProviders: info.remoteProviders(),
    }),
  );
}
