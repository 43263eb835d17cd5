import { readFileSync } from "node:fs";

/** name and version from package.json (read once; the CLI needs it without loading the server). */
export const packageInfo = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
) as { name: string; version: string };
