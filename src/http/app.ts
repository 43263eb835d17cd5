import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, { type FastifyServerOptions } from "fastify";
import { TackClient } from "../client/tack-client.js";
import type { Services } from "../domain/services.js";
import { installAccessGuard } from "./access-guard.js";
import { firstViewHtml } from "./board-first-view.js";
import { installJsonBodyParsing } from "./body-parsing.js";
import { answerClientError, answerFrameworkError } from "./client-errors.js";
import { installConditionalGets } from "./conditional-requests.js";
import type { DiskFullReports } from "./disk-full.js";
import { type AfterDurable, installDurableAnswers } from "./durable-answers.js";
import { installErrorHandling } from "./errors.js";
import { installIdempotencyKeys } from "./idempotency-keys.js";
import { closeIdleConnectionsOnlyWhenIdle } from "./idle-connections.js";
import { injectFetch } from "./inject-fetch.js";
import {
  schemasCompiledOnFirstUse,
  validatorsCompiledOnFirstUse,
} from "./lazy-schema-compilers.js";
import { installLocalGuard } from "./local-guard.js";
import { installOpenApi, openApiDocumentRoute } from "./openapi.js";
import {
  DEFAULT_BODY_LIMIT,
  DEFAULT_TIMEOUTS,
  MAX_HEADER_BYTES,
  type ServerTimeouts,
} from "./request-limits.js";
import { requestLoggerOptions } from "./request-logging.js";
import { activityRoutes } from "./routes/activity.js";
import { askRoutes } from "./routes/asks.js";
import { boardEventRoutes } from "./routes/board-events.js";
import { boardTransferRoutes } from "./routes/board-transfer.js";
import { boardRoutes } from "./routes/boards.js";
import { commentRoutes } from "./routes/comments.js";
import { externalReferenceRoutes } from "./routes/external-references.js";
import { insightsRoutes } from "./routes/insights.js";
import { laneRoutes } from "./routes/lanes.js";
import { markdownRoutes } from "./routes/markdown.js";
import { mcpRoutes } from "./routes/mcp.js";
import { remoteRoutes } from "./routes/remote.js";
import { remoteDiagnosticRoutes } from "./routes/remote-diagnostics.js";
import { type ServiceInfo, serviceRoutes } from "./routes/service.js";
import { sessionRoutes } from "./routes/session.js";
import { tagReasonRoutes } from "./routes/tag-reasons.js";
import { tagRoutes } from "./routes/tags.js";
import { templateRoutes } from "./routes/templates.js";
import { ticketBulkRoutes } from "./routes/ticket-bulk.js";
import { ticketClaimRoutes } from "./routes/ticket-claims.js";
import { ticketEventRoutes } from "./routes/ticket-events.js";
import { ticketRoutes } from "./routes/tickets.js";
import { trashRoutes } from "./routes/trash.js";
import { namedSchemas } from "./schemas/index.js";
import { installStreamAfterResponse } from "./stream-after-response.js";
import { type TicketAnswerOptions, ticketAnswers } from "./ticket-answers.js";
import type { TackApp } from "./types.js";
import { uiAssetRoutes } from "./ui-assets.js";
import { installUnreadBodyDiscarding } from "./unread-bodies.js";
import { createValidatorCompiler } from "./validation.js";

export interface AppOptions {
  services: Services;
  info: ServiceInfo;
  allowedHosts: readonly string[];
  logger: FastifyServerOptions["logger"];
  /** Interval of `: ping` lines on board streams; defaults to 15 s. */
  streamPingIntervalMs?: number;
  /** Limits against slow clients (request-limits.ts); tests shorten them. */
  timeouts?: ServerTimeouts;
  /** Folder of the built web UI; defaults to `dist/ui` of this package. */
  uiDir?: string;
  /** Answers wait for this before they leave (storage/group-commit.ts); none by default. */
  afterDurable?: AfterDurable;
  /** 507 answers and their log lines when the disk is full (default: 507 without the folder). */
  diskFull?: DiskFullReports;
  /** How tickets are answered: the reference mode (`reference`) and the kept runs' length. */
  answers?: TicketAnswerOptions;
  /** `--require-token`: loopback requests need a token too (docs/api.md, "Access tokens"). */
  requireToken?: boolean;
  /** `--tls-cert`/`--tls-key`, read: serve https on the same port. */
  tls?: { cert: Buffer; key: Buffer };
}

/**
 * Builds the HTTP application. Order matters and reads top to bottom: transport concerns
 * (guard, parsing, errors), shared schemas and OpenAPI, then the route modules, then the
 * generated document route.
 */
export async function buildApp(options: AppOptions): Promise<TackApp> {
  const app = Fastify({
    ...(options.tls ? { https: options.tls } : {}),
    logger: options.logger,
    // A child logger per request only at levels that log requests (request-logging.ts).
    ...requestLoggerOptions(options.logger),
    bodyLimit: DEFAULT_BODY_LIMIT,
    // Long-lived SSE streams must not block shutdown: close() ends idle keep-alive sockets and
    // the stream module ends its own responses.
    forceCloseConnections: "idle",
    // Limits against slow clients and oversized headers (request-limits.ts, client-errors.ts).
    ...serverLimits(options.timeouts ?? DEFAULT_TIMEOUTS),
    // Validators and serializers are compiled on a route's first use (lazy-schema-compilers.ts).
    schemaController: schemasCompiledOnFirstUse(
      validatorsCompiledOnFirstUse(() => createValidatorCompiler(namedSchemas)),
    ),
  }).withTypeProvider<TypeBoxTypeProvider>() as TackApp;
  // A client may half-close its side once its request is sent (shutdown(SHUT_WR), `nc -N`).
  // Node's default then aborts the request and ends the socket, so an answer still waiting (for
  // its fsync, durable-answers.ts) would never be written; instead, answer and then close.
  (app.server as { httpAllowHalfOpen?: boolean }).httpAllowHalfOpen = true;
  // An idle keep-alive connection is closed, but not under a request already sent on it.
  closeIdleConnectionsOnlyWhenIdle(app.server);

  installLocalGuard(app, options.allowedHosts, { https: options.tls !== undefined });
  // Tokens (docs/api.md, "Access tokens"): after Host and Origin, before anything reads the body.
  const access = installAccessGuard(app, {
    tokens: options.services.accessTokens,
    requireToken: options.requireToken === true,
  });
  installStreamAfterResponse(app);
  // A request body nobody read is drained before answering, so closing cannot cut the answer.
  installUnreadBodyDiscarding(app);
  installJsonBodyParsing(app);
  installErrorHandling(app, options.diskFull);
  // Coordination (docs/api.md, "Coordination for agents"): ETag/304 on GETs, Idempotency-Key on
  // create endpoints.
  installConditionalGets(app);
  installIdempotencyKeys(app, options.services.idempotency);
  // Last of the onSend hooks: it waits for every write above, idempotency answers included.
  if (options.afterDurable) installDurableAnswers(app, options.afterDurable);

  for (const schema of namedSchemas) app.addSchema(schema);
  await installOpenApi(app, options.info.version);

  const { services } = options;
  serviceRoutes(app, options.info);
  sessionRoutes(app, services.accessTokens, access, { https: options.tls !== undefined });
  markdownRoutes(app);
  boardRoutes(app, services.boards);
  laneRoutes(app, services.lanes);
  tagRoutes(app, services.tags);
  const answers = ticketAnswers(services, options.answers);
  ticketRoutes(app, services, answers);
  ticketBulkRoutes(app, services);
  ticketClaimRoutes(app, services, answers);
  commentRoutes(app, services.comments);
  activityRoutes(app, services.activity);
  askRoutes(app, services.asks);
  ticketEventRoutes(app, services.ticketEvents);
  tagReasonRoutes(app, services.tagReasons);
  trashRoutes(app, services.trash);
  templateRoutes(app, services.templates);
  externalReferenceRoutes(app, services.externalReferences);
  boardTransferRoutes(app, services);
  insightsRoutes(app, services.insights);
  remoteRoutes(app, services);
  remoteDiagnosticRoutes(app, services.remoteDiagnostics);
  boardEventRoutes(app, services.boards, services.events, {
    pingIntervalMs: options.streamPingIntervalMs,
  });
  // MCP over Streamable HTTP: a client of the routes above, answered through inject.
  const fetchHere = injectFetch(app);
  mcpRoutes(
    app,
    (actor, token, answers) =>
      new TackClient({ url: "http://localhost", actor, token, fetch: fetchHere, answers }),
  );
  openApiDocumentRoute(app);
  // The web UI (outside /api): index.html for its client routes (a board's with its first
  // view, when it has one), hashed assets.
  uiAssetRoutes(app, {
    uiDir: options.uiDir,
    firstView(boardId) {
      const view = services.boardFirstView(boardId);
      return view && firstViewHtml(view);
    },
  });

  return app;
}

function serverLimits(timeouts: ServerTimeouts) {
  return {
    requestTimeout: timeouts.requestTimeoutMs,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
    http: {
      headersTimeout: timeouts.headersTimeoutMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
      maxHeaderSize: MAX_HEADER_BYTES,
    },
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
  };
}
