// The optional tool groups, apart from the server so `tack serve` can check a `/mcp` URL's
// choice without loading the MCP SDK.

export const TOOLSETS = ["remote", "admin", "templates"] as const;
export type Toolset = (typeof TOOLSETS)[number];
