import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import type { OpenAPIV3_1 } from "openapi-types";

type Document = OpenAPIV3_1.Document;

/**
 * Who may call the API, as the document declares it, in one place (docs/api.md, "Access tokens"):
 * an access token as `Authorization: Bearer`, or the web UI's session cookie; or nothing (`{}`),
 * which is how loopback requests without `--require-token` are served. Listing `{}` first tells
 * linters and generated clients that the credential is optional rather than leaving it undecided.
 */
export function documentSecurity(): {
  schemes: Record<string, OpenAPIV3_1.SecuritySchemeObject>;
  security: OpenAPIV3_1.SecurityRequirementObject[];
} {
  return {
    schemes: {
      accessToken: {
        type: "http",
        scheme: "bearer",
        description:
          "An access token made with `tack token create`. Needed from other machines, and from " +
          "every client when tack runs with --require-token.",
      },
      sessionCookie: {
        type: "apiKey",
        in: "cookie",
        name: "tack_session",
        description: "The web UI's session, from POST /api/session.",
      },
    },
    security: [{}, { accessToken: [] }, { sessionCookie: [] }],
  };
}

/** The groups operations are listed under (each route names its own in `tags`). */
const OPERATION_TAGS = [
  {
    name: "service",
    description: "Health, metadata, Markdown preview, remote credential diagnostics.",
  },
  { name: "boards", description: "Boards, their export and import, and their change stream." },
  { name: "lanes", description: "The columns of a board." },
  { name: "tags", description: "Labels of a board, and the reasons a ticket carries one." },
  { name: "tickets", description: "Tickets: create, read, change, move, relations." },
  { name: "bulk", description: "Changes to many tickets of a board at once, all or nothing." },
  { name: "claims", description: "Leases that keep two agents off the same ticket." },
  { name: "comments", description: "Comments on a ticket." },
  { name: "events", description: "Structured events agents log on a ticket." },
  { name: "activity", description: "The history of a ticket." },
  {
    name: "asks",
    description: "Questions an actor asks about a ticket, the inbox, answers and long polls.",
  },
  {
    name: "templates",
    description: "Named sets of tickets of a board, made in one step with variables filled in.",
  },
  {
    name: "trash",
    description: "Deleted objects kept for a while, restorable with their ids, or erased.",
  },
  {
    name: "access",
    description: "Browser sessions made from access tokens (the web UI's sign-in and sign-out).",
  },
  {
    name: "remote",
    description: "Remote issues (GitHub, GitLab, Redmine) and external references of tickets.",
  },
];

/** The response header every successful GET (and its 304) carries (conditional-requests.ts). */
const ETAG_HEADER: OpenAPIV3_1.HeaderObject = {
  description:
    "Strong entity tag of this answer; send it back as If-None-Match (304 when unchanged), or " +
    "a ticket's as If-Match on its writes.",
  schema: { type: "string" },
};

/**
 * The OpenAPI 3.1 document is generated from the route schemas (one source for validation,
 * serialization and documentation). Named schemas keep their $id as component name, so the
 * document speaks docs/api.md's vocabulary: Board, Ticket, TicketSummary, ...
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
        license: { name: "MIT", identifier: "MIT" },
      },
      servers: [{ url: "/", description: "the tack that serves this document" }],
      tags: OPERATION_TAGS,
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, index) =>
        typeof json.$id === "string" ? json.$id : `def-${index}`,
    },
    transformObject: (generated) =>
      "openapiObject" in generated
        ? completeDocument(generated.openapiObject as Document)
        : generated.swaggerObject,
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

/**
 * What the route schemas cannot say by themselves: the security, and the ETag response header
 * of the routes that take If-None-Match (their 200 and 304 answers).
 */
function completeDocument(document: Document): Document {
  const { schemes, security } = documentSecurity();
  if (Object.keys(schemes).length > 0) {
    document.components = { ...document.components, securitySchemes: schemes };
  }
  document.security = security;
  for (const path of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(path ?? {})) {
      const { parameters, responses } = operation as OpenAPIV3_1.OperationObject;
      const conditional = (parameters ?? []).some(
        (parameter) => "in" in parameter && parameter.name === "if-none-match",
      );
      if (!conditional || !responses) continue;
      for (const status of ["200", "304"]) {
        const response = responses[status] as OpenAPIV3_1.ResponseObject | undefined;
        if (response) response.headers = { ...response.headers, ETag: ETAG_HEADER };
      }
    }
  }
  return document;
}

/** `GET /api/openapi.json`, registered after all routes so the document includes them. */
export function openApiDocumentRoute(app: FastifyInstance): void {
  app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
