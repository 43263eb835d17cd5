import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";
import { startTestServer } from "../helpers/server.js";

// A client generated from tack's OpenAPI document works unchanged: openapi-typescript
// writes the types from the live document, tsc checks a small openapi-fetch client against them
// (priority typed 1 | 2 | 3 | 4, headers declared), and the same client then runs against tack.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CLIENT = join(ROOT, "test/fixtures/openapi-client/client.ts");

const api = await startTestServer();
const folder = mkdtempSync(join(tmpdir(), "tack-openapi-client-"));
after(() => rmSync(folder, { recursive: true, force: true }));

test("a client generated from /api/openapi.json typechecks and works against tack", async () => {
  const types = astToString(await openapiTS(new URL(`${api.url}/api/openapi.json`)));
  writeFileSync(join(folder, "openapi-schema.d.ts"), types);
  copyFileSync(CLIENT, join(folder, "client.ts"));
  // The folder is a tiny project of its own that finds openapi-fetch in our node_modules.
  symlinkSync(join(ROOT, "node_modules"), join(folder, "node_modules"), "dir");
  writeFileSync(join(folder, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(
    join(folder, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        lib: ["ES2022", "DOM"],
        types: [],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
      },
      files: ["client.ts"],
    }),
  );

  const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
  const checked = await promisify(execFile)(process.execPath, [tsc, "-p", folder]).catch(
    (error: { stdout?: string; message: string }) => assert.fail(error.stdout || error.message),
  );
  assert.equal(checked.stdout, "");

  const { useTack } = (await import(pathToFileURL(join(folder, "client.ts")).href)) as {
    useTack: (baseUrl: string) => Promise<Record<string, unknown>>;
  };
  assert.deepEqual(await useTack(api.url), {
    health: true,
    priority: 3,
    ready: ["From a generated client"],
    unchanged: 304,
    stale: [412, "ticket has changed"],
    changed: 4,
    missing: [404, "ticket not found"],
    diagnostic: "unsupported_provider",
  });
});
