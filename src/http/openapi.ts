import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";

/**
 * The OpenAPI 3.1 document is generated from the route schemas (one source for validation,
 * serialization and documentation). Named schemas keep their $id as component name, so the
 * document speaks API.md's vocabulary: Board, Ticket, TicketSummary, ...
 */
export async function installOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "tack",
        version,
        description:
          "Local kanban service for one developer and their AI agents. Interface version 0.9.34.",
      },
      servers: [{ url: "/" }],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, index) =>
        typeof json.$id === "string" ? json.$id : `def-${index}`,
    },
  });
  await app.register(swaggerUi, {
    routePrefix: "/api/docs",
    // validatorUrl null: the page must not call out to swagger.io.
    uiConfig: { docExpansion: "list", deepLinking: true, validatorUrl: null },
    // The plugin's default policy adds upgrade-insecure-requests, which would send the page's own
    // assets to https://127.0.0.1 and break it: tack is served over plain http on loopback.
    staticCSP:
      "default-src 'self'; base-uri 'self'; img-src 'self' data:; object-src 'none'; " +
      "script-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; form-action 'self'",
  });
}

/** `GET /api/openapi.json`, registered after all routes so the document includes them. */
export function openApiDocumentRoute(app: FastifyInstance): void {
  app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
