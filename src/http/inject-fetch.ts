import type { FastifyInstance } from "fastify";

/**
 * A `fetch` that answers from this very server through Fastify's inject: the MCP server at
 * `/mcp` stays a client of the HTTP API (every hook, schema and rule applies, as for any other
 * client) without a socket, a port to find, or the loopback's cost (docs/decisions.md).
 */
export function injectFetch(app: FastifyInstance): typeof fetch {
  return async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init.headers);
    // A loopback name passes the Host check the way a local client's request does.
    headers.set("host", "localhost");
    const answer = await app.inject({
      method: (init.method ?? "GET") as "GET",
      url: url.pathname + url.search,
      headers: Object.fromEntries(headers),
      ...(typeof init.body === "string" ? { payload: init.body } : {}),
    });
    const bodyless = answer.statusCode === 204 || answer.statusCode === 304;
    const replyHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value])
        replyHeaders.append(name, String(one));
    }
    return new Response(bodyless ? null : answer.payload, {
      status: answer.statusCode,
      headers: replyHeaders,
    });
  };
}
