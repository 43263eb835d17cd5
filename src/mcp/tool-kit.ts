import type { Static, TObject } from "@sinclair/typebox";
import { ApiError } from "../client/errors.js";
import type { TackClient } from "../client/tack-client.js";

// How a tack tool is declared and how its results and failures reach the model.

export interface ToolContext {
  client: TackClient;
  /** The board given to `tack mcp --board`, used when a call names none. */
  boardId: number | undefined;
  /** Aborted when the client cancels the call: a tool that waits stops waiting. */
  signal?: AbortSignal | undefined;
}

export interface ToolAnswer {
  /** One line for people and for clients that show text only. */
  summary: string;
  /** The structured result (structuredContent); an object, as MCP requires. */
  data: Record<string, unknown>;
  /** The summary already says everything (prime): the text block omits the JSON copy. */
  summaryOnly?: boolean;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface TackTool<S extends TObject = TObject> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** The shape of the tool's structuredContent (its MCP `outputSchema`). */
  output: TObject;
  annotations: ToolAnnotations;
  run(args: Static<S>, context: ToolContext): Promise<ToolAnswer>;
}

export function defineTool<S extends TObject>(tool: TackTool<S>): TackTool {
  return tool as unknown as TackTool;
}

export const READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** A write that adds or changes state without destroying any; `idempotent` as given. */
export function write(idempotent: boolean, destructive = false): ToolAnnotations {
  return {
    readOnlyHint: false,
    destructiveHint: destructive,
    idempotentHint: idempotent,
    openWorldHint: false,
  };
}

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string }>;
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

export function success(answer: ToolAnswer): ToolResult {
  return {
    content: [
      {
        type: "text",
        text: answer.summaryOnly
          ? answer.summary
          : `${answer.summary}\n${JSON.stringify(answer.data)}`,
      },
    ],
    structuredContent: answer.data,
  };
}

/** Every failure is a tool error the model can read and act on: the server's words and a fix. */
export function failure(error: unknown): ToolResult {
  const shape =
    error instanceof ApiError
      ? error.toJSON()
      : {
          code: "server_error",
          message: error instanceof Error ? error.message : String(error),
          hint: "this is a bug in tack's MCP server; report it",
          retryable: false,
        };
  return {
    content: [
      { type: "text", text: `Error (${shape.code}): ${shape.message}. Fix: ${shape.hint}.` },
    ],
    structuredContent: { error: shape },
    isError: true,
  };
}
