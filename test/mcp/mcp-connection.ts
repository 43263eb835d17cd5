import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { TackClient } from "../../src/client/tack-client.js";
import { createMcpServer, type McpOptions } from "../../src/mcp/mcp-server.js";

/** An SDK client connected in process to a tack MCP server that talks to `url` as `actor`. */
export async function connectMcp(
  url: string,
  actor: string,
  options: Omit<McpOptions, "client"> = {},
): Promise<Client> {
  const server = await createMcpServer({ client: new TackClient({ url, actor }), ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "tack-test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

export interface CallResult {
  isError: boolean;
  text: string;
  data: any;
}

export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallResult> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as Array<{ type: string; text: string }>)
    .map((block) => block.text)
    .join("\n");
  return { isError: result.isError === true, text, data: result.structuredContent };
}

/** Calls a tool that must succeed and returns its structured result. */
export async function ok(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<any> {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${result.text}`);
  return result.data;
}
