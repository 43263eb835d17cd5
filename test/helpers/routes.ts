import type { FastifyInstance } from "fastify";

export interface RouteEntry {
  method: string;
  /** OpenAPI style: `/api/boards/{boardId}`. */
  path: string;
}

/**
 * Every route the app has registered, read from Fastify's route tree (Fastify offers no list).
 * `printRoutes({ commonPrefix: false })` prints one segment per line, indented four columns per
 * level, with its methods in parentheses; HEAD twins of GET routes are left out.
 */
export function registeredRoutes(app: FastifyInstance): RouteEntry[] {
  const parents: string[] = [];
  const routes: RouteEntry[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split("\n")) {
    const match = /^([│ ├└─]*)(\S.*?)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = Math.floor((match[1] ?? "").length / 4);
    const path = (parents[depth - 1] ?? "") + (match[2] ?? "");
    parents[depth] = path;
    parents.length = depth + 1;
    for (const method of (match[3] ?? "").split(", ").filter(Boolean)) {
      if (method === "HEAD") continue;
      routes.push({ method, path: path.replace(/:(\w+)/g, "{$1}") });
    }
  }
  return routes;
}
