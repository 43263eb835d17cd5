import type { Command } from "commander";
import { chooseBoard } from "../client/board-choice.js";
import { errorFromResponse, unreachable } from "../client/errors.js";
import { readStdin } from "./body-input.js";
import { clientCommand, handler } from "./command-kit.js";
import { EXIT, exitCodeFor, UsageError } from "./exit-codes.js";

// `tack api` (any request, like `gh api`) and `tack watch` (the board's event stream).

export function registerRawCommands(program: Command): void {
  clientCommand(
    program,
    "api <method> <path>",
    "Send any request to the API and print the answer's body on stdout; a refusal is also said on stderr, and the exit code follows the status (the table of `tack --help`).",
    [
      "tack api GET /api/meta",
      "tack api PATCH /api/tickets/42 --data '{\"priority\":4}'",
      "tack api POST /api/boards/1/tickets --data @ticket.json",
      "tack api GET /api/tickets/42 --include",
    ],
  )
    .option("-d, --data <json>", "request body: JSON text, @file, or - for stdin")
    .option("-H, --header <header...>", "extra headers, e.g. 'If-Match: \"abc\"'")
    .option("-i, --include", "print the status line and headers first")
    .action(
      handler(async ({ client, flags }, method, path) => {
        if (!(path as string).startsWith("/")) throw new UsageError("the path must start with /");
        const data = flags.data as string | undefined;
        let rawBody: string | undefined;
        if (data === "-") rawBody = await readStdin();
        else if (data?.startsWith("@"))
          rawBody = (await import("node:fs")).readFileSync(data.slice(1), "utf8");
        else rawBody = data;
        const headers: Record<string, string> = {};
        for (const header of (flags.header as string[] | undefined) ?? []) {
          const colon = header.indexOf(":");
          if (colon < 1) throw new UsageError(`a header is "Name: value", not "${header}"`);
          headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
        }
        const response = await client.raw((method as string).toUpperCase(), path as string, {
          rawBody,
          headers,
        });
        if (flags.include) {
          process.stdout.write(`HTTP ${response.status}\n`);
          for (const [name, value] of response.headers) process.stdout.write(`${name}: ${value}\n`);
          process.stdout.write("\n");
        }
        if (response.text !== "") process.stdout.write(`${response.text}\n`);
        // Like `gh api`: the body stays on stdout for scripts, the failure is also said on stderr
        // (the server's sentence, its status and a hint), and the exit code follows the status.
        if (response.status >= 400) {
          const error = errorFromResponse(response.status, sentenceOf(response.body));
          console.error(`tack: ${error.message} (HTTP ${response.status})`);
          console.error(`hint: ${error.hint}`);
          process.exitCode = exitCodeFor(error);
        }
      }),
    );

  clientCommand(
    program,
    "watch",
    "Print the board's change notifications as JSON lines until interrupted (or the board is deleted).",
    ["tack watch --board 1", "tack watch | while read -r line; do tack ready -q; done"],
    { board: true },
  ).action(
    handler(async ({ client, board }) => {
      const boardId = await chooseBoard(client, board);
      let response: Response;
      try {
        response = await fetch(`${client.url}/api/boards/${boardId}/events`, {
          headers: { accept: "text/event-stream", ...client.authHeaders() },
        });
      } catch (error) {
        throw unreachable(client.url, error);
      }
      if (!response.ok || !response.body) {
        const body = (await response.json().catch(() => ({}))) as { error?: string };
        throw errorFromResponse(response.status, body.error ?? `HTTP ${response.status}`);
      }
      const decoder = new TextDecoder();
      let buffer = "";
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let newline = buffer.indexOf("\n");
        while (newline !== -1) {
          const line = buffer.slice(0, newline).replace(/\r$/, "");
          buffer = buffer.slice(newline + 1);
          if (line.startsWith("data:")) process.stdout.write(`${line.slice(5).trim()}\n`);
          newline = buffer.indexOf("\n");
        }
      }
      process.exitCode = EXIT.ok;
    }),
  );
}

/**
 * The server's sentence in a refusal: `error` of the usual shape, `message` of the one exception
 * (a failed remote diagnostic's result), else nothing to quote.
 */
function sentenceOf(body: unknown): string {
  const { error, message } = (body ?? {}) as { error?: unknown; message?: unknown };
  if (typeof error === "string") return error;
  if (typeof message === "string") return message;
  return "the server refused the request";
}
