import { fromJsonSchema, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { primeText } from "../client/prime.js";
import type { TackClient } from "../client/tack-client.js";
import { packageInfo } from "../package-info.js";
import { coreTools } from "./core-tools.js";
import { adminTools, remoteTools } from "./optional-tools.js";
import { failure, success, type TackTool, type ToolContext } from "./tool-kit.js";

// tack's MCP server: a client of the HTTP API that presents it as tools written for a model.

export const TOOLSETS = ["remote", "admin"] as const;
export type Toolset = (typeof TOOLSETS)[number];

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
    ...(toolsets.has("remote") ? remoteTools : []),
    ...(toolsets.has("admin") ? adminTools : []),
  ];
  return options.readOnly ? tools.filter((tool) => tool.annotations.readOnlyHint) : tools;
}

/** One server instance; its instructions are the prime text, read from the server now. */
export async function createMcpServer(options: McpOptions): Promise<McpServer> {
  const context: ToolContext = { client: options.client, boardId: options.boardId };
  const instructions = await primeText(options.client, { boardId: options.boardId });
  const server = new McpServer(
    { name: "tack", version: packageInfo.version },
    { capabilities: { tools: {} }, instructions },
  );
  for (const tool of selectTools(options)) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        // Through JSON: TypeBox marks its schemas with symbol keys, which MCP's listing rejects.
        inputSchema: fromJsonSchema(JSON.parse(JSON.stringify(tool.input))),
        annotations: { title: tool.title, ...tool.annotations },
      },
      async (args: unknown) => {
        try {
          return success(await tool.run(args as never, context));
        } catch (error) {
          return failure(error);
        }
      },
    );
  }
  return server;
}

/** Serves over stdin/stdout until the client closes stdin; logs go to stderr only. */
export async function serveMcpStdio(options: McpOptions): Promise<void> {
  const handle = serveStdio(() => createMcpServer(options), {
    onerror: (error) => console.error(`tack mcp: ${error.message}`),
  });
  await new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  await handle.close();
}
