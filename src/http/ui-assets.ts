import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyReply } from "fastify";
import type { TackApp } from "./types.js";

/**
 * Serves the web UI built by Vite (`ui/` → `dist/ui/`): the files under `assets/` (content-hashed
 * names, cached for a year) and `index.html` for `/` and every client route (never cached, with
 * the security headers below). The build is a few dozen small files, so they are read once into
 * memory when the app is built; nothing on disk is looked up per request, so no request path can
 * reach outside the folder. `/api/*` is untouched: unknown API paths keep their JSON 404.
 */

/** `dist/ui` next to this package's `dist/` or `src/` folder. */
export const DEFAULT_UI_DIR = fileURLToPath(new URL("../../dist/ui", import.meta.url));

/** Client routes of the single-page app; each answers index.html so reloads and links work. */
export const UI_CLIENT_ROUTES = [
  "/",
  "/boards/:boardId",
  "/boards/:boardId/list",
  "/boards/:boardId/insights",
  "/tickets/:ticketId",
  "/inbox",
];

/**
 * Only tack's own origin: no inline script or style, no framing, no plug-ins. `img-src` also
 * allows `data:` for the inline SVG icons of the stylesheet and `https:` for images linked from
 * ticket bodies (rendered Markdown may show remote images; they cannot run code).
 */
export const UI_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const HTML_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-cache",
  "content-security-policy": UI_CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
} as const;

const MIME_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
};

interface Asset {
  body: Buffer;
  type: string;
  /** Vite names files under assets/ by content hash, so they never change under one URL. */
  immutable: boolean;
}

/** Where the board page's first view goes in index.html: right after the app's mount point. */
const APP_MOUNT = '<div id="app"></div>';

/** The board page: index.html with `firstView`'s HTML for its board, when it gives one. */
const BOARD_PAGE = "/boards/:boardId";

export interface UiAssetOptions {
  uiDir?: string;
  /**
   * The first view of board `boardId` as HTML (board-first-view.ts), or undefined for none: the
   * board page `/boards/{id}` without a query carries it (ui/ARCHITECTURE.md, "The first view").
   */
  firstView?: (boardId: number) => string | undefined;
}

export function uiAssetRoutes(app: TackApp, options: UiAssetOptions = {}): void {
  const { uiDir = DEFAULT_UI_DIR, firstView } = options;
  const indexFile = join(uiDir, "index.html");
  const built = existsSync(indexFile);
  const index = built ? readFileSync(indexFile) : undefined;
  const assets = built ? readAssets(uiDir) : new Map<string, Asset>();
  const mountEnd = index ? index.indexOf(APP_MOUNT) + APP_MOUNT.length : -1;

  /** The board page with its first view, or undefined to send index.html as it is. */
  const boardPage = (url: string, boardId: string): Buffer | undefined => {
    if (!index || !firstView || mountEnd < APP_MOUNT.length || url.includes("?")) return;
    const id = Number(boardId);
    if (!/^\d{1,15}$/.test(boardId) || id < 1) return;
    const html = firstView(id);
    if (html === undefined) return;
    return Buffer.concat([
      index.subarray(0, mountEnd),
      Buffer.from(html),
      index.subarray(mountEnd),
    ]);
  };

  const sendIndex = (reply: FastifyReply, page: Buffer | undefined = index) => {
    if (index === undefined) {
      return reply
        .code(503)
        .header("content-type", "text/plain; charset=utf-8")
        .header("cache-control", "no-cache")
        .send(
          "tack's web UI has not been built. Run `npm run build` (npm ci does it), then restart tack.\n" +
            "The API is available under /api (see /api/docs).\n",
        );
    }
    return reply.headers(HTML_HEADERS).send(page);
  };

  for (const url of UI_CLIENT_ROUTES) {
    if (url === BOARD_PAGE) {
      app.get<{ Params: { boardId: string } }>(
        url,
        { schema: { hide: true } },
        async (request, reply) => sendIndex(reply, boardPage(request.url, request.params.boardId)),
      );
    } else app.get(url, { schema: { hide: true } }, async (_request, reply) => sendIndex(reply));
  }

  for (const [url, asset] of assets) {
    app.get(url, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .header("content-type", asset.type)
        .header("x-content-type-options", "nosniff")
        .header(
          "cache-control",
          asset.immutable ? "public, max-age=31536000, immutable" : "no-cache",
        )
        .send(asset.body),
    );
  }
}

/** Every file of the build except index.html, keyed by its URL path. */
function readAssets(uiDir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const file = join(folder, name);
      if (statSync(file).isDirectory()) {
        walk(file);
        continue;
      }
      const path = relative(uiDir, file).split(sep).join("/");
      if (path === "index.html") continue;
      assets.set(`/${path}`, {
        body: readFileSync(file),
        type: MIME_TYPES[extname(name).toLowerCase()] ?? "application/octet-stream",
        immutable: path.startsWith("assets/"),
      });
    }
  };
  walk(uiDir);
  return assets;
}
