// src/domain/markdown.ts copies memo keys with Node's Buffer (to drop V8 sliced-string views).
// In the browser a string copy is not needed; this stand-in returns the string as is.
const globals = globalThis as { Buffer?: unknown };
globals.Buffer ??= {
  from: (text: string) => ({ toString: () => text }),
};

export {};
