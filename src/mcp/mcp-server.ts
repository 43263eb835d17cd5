import {
  fromJsonSchema,
  McpServer,
  type StandardSchemaWithJSON,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { ApiError } from "../client/errors.js";
import { primeText } from "../client/prime.js";
import type { TackClient } from "../client/tack-client.js";
import { packageInfo } from "../package-info.js";
import { coreTools } from "./core-tools.js";
import { askTools, checklistTools, templateTools } from "./loop-tools.js";
import { adminTools, remoteTools } from "./optional-tools.js";
import { listedOutput } from "./output-schemas.js";
import { LineTransport } from "./stdio-transport.js";
import { failure, success, type TackTool, type ToolContext } from "./tool-kit.js";
import type { Toolset } from "./toolsets.js";

// tack's MCP server: a client of the HTTP API that presents it as tools written for a model.

export { TOOLSETS, type Toolset } from "./toolsets.js";

export interface McpOptions {
  client: TackClient;
  boardId?: number | undefined;
  toolsets?: Toolset[];
  readOnly?: boolean;
}

/** The tools a server with these options offers, in their stable order. */
export function selectTools(options: Pick<McpOptions, "toolsets" | "readOnly">): TackTool[] {
  const toolsets = new Set(options.toolsets ?? []);
  const tools = [
    ...coreTools,
    ...askTools,
    ...checklistTools,
    ...(toolsets.has("remote") ? remoteTools : []),
    ...(toolsets.has("admin") ? adminTools : []),
    ...(toolsets.has("templates") ? templateTools : []),
  ];
  return options.readOnly ? tools.filter((tool) => tool.annotations.readOnlyHint) : tools;
}

/** One server instance; its instructions are the prime text, read from the server now. */
export async function createMcpServer(options: McpOptions): Promise<McpServer> {
  const context: ToolContext = { client: options.client, boardId: options.boardId };
  const instructions = await primeText(options.client, { boardId: options.boardId });
  const server = new McpServer(
    { name: "tack", version: packageInfo.version },
    // The tool list is fixed for a server's life: no list_changed notifications to listen for.
    { capabilities: { tools: { listChanged: false } }, instructions },
  );
  for (const tool of selectTools(options)) {
    // Through JSON: TypeBox marks its schemas with symbol keys, which MCP's listing rejects.
    const input = JSON.parse(JSON.stringify(tool.input));
    const checkInput = fromJsonSchema(input)["~standard"].validate;
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        // Arguments are checked in the handler below, so a refusal is a structured tool error.
        inputSchema: listedOnly(input),
        // Listed for clients; test/mcp checks every tool's results against it.
        outputSchema: listedOnly(listedOutput(tool.output)),
        annotations: { title: tool.title, ...tool.annotations },
      },
      async (args: unknown, extra: { mcpReq?: { signal?: AbortSignal } }) => {
        try {
          const checked = await checkInput(args ?? {});
          if (checked.issues) throw invalidArguments(tool.name, checked.issues);
          const signal = extra?.mcpReq?.signal;
          return success(await tool.run(checked.value as never, { ...context, signal }));
        } catch (error) {
          return failure(error);
        }
      },
    );
  }
  return server;
}

/**
 * A JSON Schema the SDK lists but does not enforce. The SDK's own check would answer a bad
 * argument with bare text; tack's tools answer every failure with {code, message, hint}.
 */
function listedOnly(schema: Record<string, unknown>): StandardSchemaWithJSON {
  return {
    "~standard": {
      version: 1,
      vendor: "tack",
      jsonSchema: { input: () => schema, output: () => schema },
      validate: (value: unknown) => ({ value }),
    },
  };
}

function invalidArguments(tool: string, issues: ReadonlyArray<{ message: string }>): ApiError {
  return new ApiError(
    "invalid_request",
    `invalid arguments for ${tool}: ${issues.map((issue) => issue.message).join("; ")}`,
    "call again with arguments that match the tool's inputSchema (tools/list shows it)",
    false,
    400,
  );
}

/**
 * Serves over stdin/stdout until the client closes stdin and every request received by then is
 * answered; logs go to stderr only.
 */
export async function serveMcpStdio(options: McpOptions): Promise<void> {
  const transport = new LineTransport();
  const handle = serveStdio(() => createMcpServer(options), {
    transport,
    onerror: (error) => console.error(`tack mcp: ${error.message}`),
  });
  await transport.done;
  await handle.close();
}
