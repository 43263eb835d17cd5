import { claimTools } from "./claim-tools.js";
import { readingTools } from "./reading-tools.js";
import { ticketWritingTools } from "./ticket-writing-tools.js";
import type { TackTool } from "./tool-kit.js";

// The core tools, in the order tools/list shows them (stable: clients cache the listing, and
// test/mcp/tools.snapshot.json pins it): reading first, then claims, then ticket writes.

export const coreTools: TackTool[] = [...readingTools, ...claimTools, ...ticketWritingTools];
