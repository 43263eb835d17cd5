import { Type } from "@sinclair/typebox";
import { renderMarkdown } from "../../domain/markdown.js";
import { answer, errors } from "../schemas/common.js";
import type { TackApp } from "../types.js";

/**
 * A preview of what a body will look like once saved: the same renderer and sanitizer the
 * server stores `bodyHtml` with, so an editor's preview can never differ from the result.
 * Writes nothing.
 */
export function markdownRoutes(app: TackApp): void {
  app.post(
    "/api/markdown/preview",
    {
      schema: {
        operationId: "previewMarkdown",
        summary: "Render Markdown as a saved body would be",
        tags: ["service"],
        description:
          "Renders Markdown exactly as a ticket or comment body would be stored (bodyHtml); writes nothing.",
        body: Type.Object({ markdown: Type.String({ maxLength: 200_000 }) }),
        response: {
          200: answer(
            Type.Object({ html: Type.String() }),
            "The sanitized HTML a body with this Markdown would store; nothing is written.",
          ),
          ...errors(400),
        },
      },
    },
    async (request) => ({ html: renderMarkdown(request.body.markdown) }),
  );
}
