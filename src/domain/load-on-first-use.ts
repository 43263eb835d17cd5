import { createRequire } from "node:module";
import type * as Entities from "entities";

/**
 * The Markdown renderer's packages (markdown-it, highlight.js and its grammars, js-xss,
 * entities) are loaded when a body is first rendered, not when tack starts: a server that only
 * reads keeps ~3-6 MiB less resident (docs/performance.md, "Start-up and memory at rest").
 * Rendering is synchronous (inside transactions), so they are loaded with require(): each has a
 * CommonJS build, and this is the one place that loads them.
 */
export const requirePackage = createRequire(import.meta.url);

/** A value made by `load` on the first call, then kept. */
export function onFirstUse<T>(load: () => T): () => T {
  let value: { made: T } | undefined;
  return () => {
    value ??= { made: load() };
    return value.made;
  };
}

/** entities' decoder of HTML attribute values (the allowlist filter and the direct renderer). */
export const htmlEntities = onFirstUse(() => requirePackage("entities") as typeof Entities);
