import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// Builds ui/ into dist/ui/, which tack serves (src/http/ui-assets.ts).
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/",
  publicDir: "public",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  // `npm run dev:ui`: the API of a tack started beside it (`npm start`). The proxy drops Origin,
  // which tack's cross-origin guard would otherwise refuse (the dev server is another origin).
  server: {
    proxy: {
      "/api": {
        target: "http://127.0.0.1:3000",
        changeOrigin: true,
        configure: (proxy) => proxy.on("proxyReq", (request) => request.removeHeader("origin")),
      },
    },
  },
  build: {
    outDir: fileURLToPath(new URL("../dist/ui", import.meta.url)),
    emptyOutDir: true,
    target: "es2022",
    // The CSP forbids inline script; keep every module a file.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
