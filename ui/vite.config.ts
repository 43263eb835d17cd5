import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// Builds ui/ into dist/ui/, which tack serves (src/http/ui-assets.ts).
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/",
  publicDir: "public",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
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
