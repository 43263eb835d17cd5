// The body preview renders with tack's own Markdown module (src/domain/markdown.ts: markdown-it
// with the same options and the same allowlist sanitizer), so the preview is exactly the HTML the
// server will store. Loaded lazily: it is not part of the initial bundle.
import "./buffer-shim";

export { renderMarkdown } from "../../src/domain/markdown.js";
