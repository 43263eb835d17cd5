// The body preview asks the server to render (`POST /api/markdown/preview`): the same renderer,
// highlighter and sanitizer that produce the stored `bodyHtml`, so the preview is exactly what
// saving will show, and the UI ships no Markdown library of its own.
import { request } from "./api";

export async function renderMarkdown(markdown: string): Promise<string> {
  return (await request<{ html: string }>("POST", "/api/markdown/preview", { markdown })).html;
}
