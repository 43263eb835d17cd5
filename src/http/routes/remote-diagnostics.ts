import { Type } from "@sinclair/typebox";
import type { RemoteDiagnosticsService } from "../../domain/remote-tracking/remote-diagnostics.js";
import { ErrorRef, errors } from "../schemas/common.js";
import {
  RemoteDiagnosticRequest,
  RemoteDiagnosticResult,
  RemoteProviderDiagnostics,
} from "../schemas/remote.js";
import type { TackApp } from "../types.js";

export function remoteDiagnosticRoutes(app: TackApp, diagnostics: RemoteDiagnosticsService): void {
  app.get(
    "/api/remote-diagnostics",
    {
      schema: {
        operationId: "listRemoteProviders",
        tags: ["service"],
        description: "Which providers have a credential; never the credential itself.",
        response: { 200: RemoteProviderDiagnostics, ...errors(400, 500) },
      },
    },
    async () => ({ providers: diagnostics.providers() }),
  );

  const Result = Type.Ref(RemoteDiagnosticResult);
  app.post(
    "/api/remote-diagnostics",
    {
      schema: {
        operationId: "diagnoseRemote",
        tags: ["service"],
        description:
          "Uses only a credential configured for exactly the target instance (never a " +
          "wildcard). 200 when reachable; 400 with a RemoteDiagnosticResult when the check " +
          "fails, the provider is unsupported or the credential is missing. A malformed request " +
          "body is 400 with the usual error shape.",
        body: Type.Ref(RemoteDiagnosticRequest),
        response: { 200: Result, 400: Type.Union([Result, ErrorRef]), ...errors(500) },
      },
    },
    async (request, reply) => {
      const { ok, result } = await diagnostics.check(request.body);
      return reply.code(ok ? 200 : 400).send(result);
    },
  );
}
