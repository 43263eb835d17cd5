import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";
import type { ServerTimeouts } from "../../src/http/request-limits.js";
import type { TicketAnswerOptions } from "../../src/http/ticket-answers.js";
import { type RunningServer, startServer } from "../../src/server.js";
import type { SyncFile } from "../../src/storage/group-commit.js";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestServer {
  url: string;
  dbFile: string;
  server: RunningServer;
  /** Sends a request; objects are sent as JSON with `Content-Type: application/json`. */
  request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse<T>>;
  get<T = any>(path: string): Promise<ApiResponse<T>>;
  post<T = any>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  patch<T = any>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  put<T = any>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  delete<T = any>(path: string): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Reuse a database file (restart tests); defaults to a fresh one in a temporary folder. */
  dbFile?: string;
  allowedHosts?: string[];
  /** Environment for credential configuration (remote tracking); defaults to none. */
  env?: Record<string, string | undefined>;
  /** Shorter limits against slow clients (test/trust/limits.test.ts). */
  timeouts?: ServerTimeouts;
  /** Stands in for fsync of the write-ahead log (test/storage/group-commit.test.ts). */
  syncFile?: SyncFile;
  /**
   * How tickets are answered: `{ reference: true }` keeps nothing between requests (the oracle of
   * test/api/live-lists-*.test.ts), `runLength` sets the kept runs' length (http/ticket-answers.ts).
   */
  answers?: TicketAnswerOptions;
  /** Address to listen on (default 127.0.0.1); a non-loopback one tests remote peers. */
  host?: string;
  /** `--require-token` (test/trust/hostile-network.test.ts). */
  requireToken?: boolean;
  /** Days deleted objects stay in the trash (default 30, as `tack serve`). */
  trashDays?: number;
}

/**
 * Starts tack in this process on an ephemeral loopback port with its own SQLite file, exactly as
 * `tack serve` would, and closes it (and removes the folder) when the test file ends.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const folder = options.dbFile ? undefined : mkdtempSync(join(tmpdir(), "tack-test-"));
  const dbFile = options.dbFile ?? join(folder as string, "tack.sqlite");
  const server = await startServer(
    {
      host: options.host ?? "127.0.0.1",
      port: 0,
      dbFile,
      allowedHosts: options.allowedHosts ?? [],
      logLevel: "silent",
      requireToken: options.requireToken === true,
      trashDays: options.trashDays,
    },
    options.env ?? {},
    {
      timeouts: options.timeouts,
      syncFile: options.syncFile,
      answers: options.answers,
    },
  );
  const request = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse> => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === "string" ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)["content-type"] ??= "application/json";
    }
    const response = await fetch(server.url + path, init);
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get("content-type") ?? "").includes("application/json") && text !== "") {
      parsed = JSON.parse(text);
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  };
  let closed = false;
  const testServer: TestServer = {
    url: server.url,
    dbFile,
    server,
    request,
    get: (path) => request("GET", path),
    post: (path, body) => request("POST", path, body),
    patch: (path, body) => request("PATCH", path, body),
    put: (path, body) => request("PUT", path, body),
    delete: (path) => request("DELETE", path),
    async close() {
      if (closed) return;
      closed = true;
      await server.close();
    },
  };
  after(async () => {
    await testServer.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });
  return testServer;
}
