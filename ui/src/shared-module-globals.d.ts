// The body preview imports tack's server Markdown module (src/domain/markdown.ts), which names
// Node's Buffer for its memo; buffer-shim.ts provides a stand-in at run time. This declares only
// what that module uses, so the UI program is type-checked without Node's types.
declare const Buffer: {
  from(text: string, encoding: "utf16le"): { toString(encoding: "utf16le"): string };
};
