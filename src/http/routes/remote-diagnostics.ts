import { Type } from "@sinclair/typebox";
import {
  type RemoteDiagnosticsService,
  unreadableDiagnosticRequest,
} from "../../domain/remote-tracking/remote-diagnostics.js";
import { answerError, classifyError } from "../errors.js";
import { answer, errors } from "../schemas/common.js";
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
        summary: "List remote providers and whether each has a credential",
        tags: ["service"],
        description: "Which providers have a credential; never the credential itself.",
        response: {
          200: answer(
            RemoteProviderDiagnostics,
            "Each provider with hasCredential and its status.",
          ),
          ...errors(400, 500),
        },
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
        summary: "Check a remote credential or issue",
        tags: ["service"],
        description:
          "Uses only a credential configured for exactly the target instance (never a " +
          "wildcard). 200 when reachable; 400 with a RemoteDiagnosticResult when the check " +
          "fails, the provider is unsupported or the credential is missing; a request that " +
          'cannot be read too (no string provider: unsupported_provider with provider ""; ' +
          "any other malformed field: error), its message naming the problem.",
        body: Type.Ref(RemoteDiagnosticRequest),
        response: {
          200: answer(
            Result,
            "The instance accepted the credential (and the issue exists): status reachable.",
          ),
          400: answer(
            Result,
            "The check failed, or the request named no supported provider or could not be " +
              "read: status and message say which (never the error shape).",
          ),
          ...errors(413, 500),
        },
      },
      // docs/api.md's exception: every 400 here carries a RemoteDiagnosticResult, schema failures
      // and unparsable bodies included; other statuses keep the usual error shape.
      errorHandler: (error, request, reply) => {
        const { status, message } = classifyError(error);
        if (status !== 400) return answerError(error, request, reply);
        return reply.code(400).send(unreadableDiagnosticRequest(request.body, message));
      },
    },
    async (request, reply) => {
      const { ok, result } = await diagnostics.check(request.body);
      return reply.code(ok ? 200 : 400).send(result);
    },
  );
}
