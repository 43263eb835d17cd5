import { Type } from "@sinclair/typebox";
import type { RemoteProviderId } from "../../providers/types.js";
import { answer, errors } from "../schemas/common.js";
import { ServiceMeta } from "../schemas/service.js";
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
        summary: "Check that tack is up",
        description:
          "For scripts and process managers: 200 {ok: true} while the database can be read.",
        tags: ["service"],
        response: {
          200: answer(
            Type.Object({ ok: Type.Boolean() }),
            "tack answers and its database is usable (500 when it is not).",
          ),
          ...errors(400, 500),
        },
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
        summary: "Name, version and remote providers",
        description: "Clients use remoteProviders to decide whether to offer remote import.",
        tags: ["service"],
        response: {
          200: answer(
            ServiceMeta,
            "The service's name and version, and which remote providers have a credential (never the credential).",
          ),
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
