// Syntax highlighting of fenced code blocks, on the server, so every client shows the same
// colours without shipping a highlighter. Only the language the author named is used: no
// auto-detection, which would run every grammar over every block. The grammars are the
// languages people paste into issues; an unknown name leaves the block plain (still escaped).

import type { HLJSApi, LanguageFn } from "highlight.js";
import { onFirstUse, requirePackage } from "./load-on-first-use.js";

const GRAMMARS = [
  "bash",
  "c",
  "cpp",
  "csharp",
  "css",
  "diff",
  "dockerfile",
  "go",
  "ini",
  "java",
  "javascript",
  "json",
  "kotlin",
  "lua",
  "makefile",
  "markdown",
  "perl",
  "php",
  "plaintext",
  "python",
  "ruby",
  "rust",
  "scala",
  "shell",
  "sql",
  "swift",
  "typescript",
  "xml",
  "yaml",
];

/** highlight.js with the grammars above, loaded by the first body that renders. */
const hljs = onFirstUse(() => {
  const core = requirePackage("highlight.js/lib/core") as HLJSApi;
  for (const name of GRAMMARS) {
    core.registerLanguage(name, requirePackage(`highlight.js/lib/languages/${name}`) as LanguageFn);
  }
  return core;
});

/** A language name as written after the fence (`ts`, `Python`, `sh`), or undefined if unknown. */
export function knownLanguage(name: string): string | undefined {
  const lower = name.toLowerCase();
  return hljs().getLanguage(lower) ? lower : undefined;
}

/**
 * The code as highlight.js token spans (`<span class="hljs-keyword">`), escaped; the language
 * must be one `knownLanguage` accepted.
 */
export function highlightCode(code: string, language: string): string {
  return hljs().highlight(code, { language, ignoreIllegals: true }).value;
}
