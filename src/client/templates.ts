import type {
  InstantiateInput,
  TemplateInput,
  TemplatePatchInput,
  TemplateT,
  Ticket,
} from "./api-types.js";
import { ApiError } from "./errors.js";
import type { TackClient } from "./tack-client.js";

// Templates (docs/api.md, "Templates"): a board's named set of tickets, made in one step.

export async function listTemplates(client: TackClient, boardId: number): Promise<TemplateT[]> {
  return (await client.call<{ templates: TemplateT[] }>("GET", `/api/boards/${boardId}/templates`))
    .templates;
}

export function getTemplate(client: TackClient, templateId: number): Promise<TemplateT> {
  return client.call<TemplateT>("GET", `/api/templates/${templateId}`);
}

export function createTemplate(
  client: TackClient,
  boardId: number,
  input: TemplateInput,
  idempotencyKey?: string,
): Promise<TemplateT> {
  return client.call<TemplateT>("POST", `/api/boards/${boardId}/templates`, {
    body: input,
    idempotencyKey,
  });
}

export function updateTemplate(
  client: TackClient,
  templateId: number,
  patch: TemplatePatchInput,
): Promise<TemplateT> {
  return client.call<TemplateT>("PATCH", `/api/templates/${templateId}`, { body: patch });
}

export function deleteTemplate(client: TackClient, templateId: number): Promise<void> {
  return client.call<void>("DELETE", `/api/templates/${templateId}`);
}

/** Makes the template's tickets in one step; answers them in template order. */
export async function instantiateTemplate(
  client: TackClient,
  templateId: number,
  input: InstantiateInput = {},
  idempotencyKey?: string,
): Promise<Ticket[]> {
  const body: Record<string, unknown> = {};
  if (input.values !== undefined) body.values = input.values;
  if (input.laneId !== undefined) body.laneId = input.laneId;
  return (
    await client.call<{ tickets: Ticket[] }>("POST", `/api/templates/${templateId}/instantiate`, {
      body,
      idempotencyKey,
    })
  ).tickets;
}

/** A template of the board by id (digits) or by name (ignoring case, as the API compares them). */
export async function findTemplate(
  client: TackClient,
  boardId: number,
  given: string | number,
): Promise<TemplateT> {
  if (typeof given === "number" || /^\d+$/.test(given)) {
    return getTemplate(client, Number(given));
  }
  const templates = await listTemplates(client, boardId);
  const wanted = given.trim().toLowerCase();
  const found = templates.find((template) => template.name.toLowerCase() === wanted);
  if (!found) {
    throw new ApiError(
      "not_found",
      `no template named ${JSON.stringify(given)} on board ${boardId}`,
      `use one of: ${templates.map((one) => `${one.id} ${one.name}`).join(", ") || "(none; create one first)"}`,
      false,
      404,
    );
  }
  return found;
}
