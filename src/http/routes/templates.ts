import type { TemplateService } from "../../domain/templates/templates.js";
import { IdempotencyKeyHeaders } from "../idempotency-keys.js";
import { createRoute, deleteRoute, listOf, listRoute } from "../route-shapes.js";
import { answer, BoardIdParams, errors, TemplateIdParams } from "../schemas/common.js";
import {
  TemplateCreateBody,
  TemplateInstantiateBody,
  TemplatePatchBody,
  TemplateRef,
} from "../schemas/templates.js";
import { TicketRef } from "../schemas/tickets.js";
import type { TackApp } from "../types.js";

/** Templates (docs/api.md, "Templates"): CRUD on a board's templates, and instantiation. */
export function templateRoutes(app: TackApp, templates: TemplateService): void {
  listRoute(
    app,
    "/api/boards/:boardId/templates",
    {
      operationId: "listTemplates",
      summary: "List a board's templates",
      description: "Templates by name, ignoring case.",
      tags: ["templates"],
      params: BoardIdParams,
      key: "templates",
      item: TemplateRef,
      listed: "The board's templates.",
    },
    ({ boardId }) => templates.list(boardId),
  );

  createRoute(
    app,
    "/api/boards/:boardId/templates",
    {
      operationId: "createTemplate",
      summary: "Create a template",
      description:
        "A named set of 1-200 tickets with keys, lanes by name, tags by name, parents and " +
        "blockers by key; {{variables}} in titles and bodies. A name the board has (ignoring " +
        "case) is 409.",
      tags: ["templates"],
      params: BoardIdParams,
      body: TemplateCreateBody,
      item: TemplateRef,
      created: "The new template, its defaults filled.",
      alsoErrors: [409],
      idempotent: true,
    },
    ({ boardId }, body) => templates.create(boardId, body),
  );

  app.get(
    "/api/templates/:templateId",
    {
      schema: {
        operationId: "getTemplate",
        summary: "Get a template",
        description: "The template with its tickets and the variables they use.",
        tags: ["templates"],
        params: TemplateIdParams,
        response: { 200: answer(TemplateRef, "The template."), ...errors(400, 404) },
      },
    },
    async (request) => templates.get(request.params.templateId),
  );

  app.patch(
    "/api/templates/:templateId",
    {
      schema: {
        operationId: "updateTemplate",
        summary: "Change a template",
        description:
          "The fields sent replace the template's (tickets as a whole), checked as on create.",
        tags: ["templates"],
        params: TemplateIdParams,
        body: TemplatePatchBody,
        response: {
          200: answer(TemplateRef, "The template as changed."),
          ...errors(400, 404, 409),
        },
      },
    },
    async (request) => templates.update(request.params.templateId, request.body),
  );

  deleteRoute(
    app,
    "/api/templates/:templateId",
    {
      operationId: "deleteTemplate",
      summary: "Delete a template",
      description: "Tickets made from it stay.",
      tags: ["templates"],
      params: TemplateIdParams,
      gone: "The template is deleted.",
    },
    ({ templateId }) => templates.remove(templateId),
  );

  app.post(
    "/api/templates/:templateId/instantiate",
    {
      schema: {
        operationId: "instantiateTemplate",
        summary: "Make a template's tickets",
        description:
          "Every {{name}} replaced by values[name]; each ticket in its laneName, else laneId, " +
          "else the first lane; missing tags made; parents and blockers wired. One " +
          "transaction, one stream message.",
        tags: ["templates"],
        params: TemplateIdParams,
        body: TemplateInstantiateBody,
        headers: IdempotencyKeyHeaders,
        response: {
          201: answer(listOf("tickets", TicketRef), "The new tickets, in template order."),
          ...errors(400, 404, 422),
        },
      },
      config: { idempotent: true },
    },
    async (request, reply) =>
      reply.code(201).send({
        tickets: templates.instantiate(request.params.templateId, request.body),
      }),
  );
}
