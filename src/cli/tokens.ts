import { type Command, Option } from "commander";
import { table } from "./command-kit.js";
import { EXIT } from "./exit-codes.js";

/**
 * `tack token create|list|revoke` (docs/api.md, "Access tokens"). Like `tack backup`, they open the
 * SQLite file themselves instead of asking a server: managing who may reach the server must not
 * itself need a token, and it works whether or not a server runs. A running server reads tokens
 * from the database on each request, so a revocation applies from its next request.
 */
export function registerTokenCommands(program: Command): void {
  const group = program
    .command("token")
    .description(
      "Access tokens for remote access and --require-token (acts on the database file).",
    );
  group.addHelpText(
    "after",
    `
Examples:
  $ tack token create --name phone --expires 30d
  $ tack token create --name ci-reader --read-only
  $ tack token list
  $ tack token revoke phone`,
  );

  group
    .command("create")
    .description("Make a token; it is printed once, alone on the last line.")
    .requiredOption("--name <name>", "a unique name (1-100 characters), shown in the activity")
    .option("--read-only", "the token may only read")
    .option("--expires <duration>", "expire after <n>d days or <n>h hours, e.g. 30d")
    .addOption(dbOption())
    .action((flags: { name: string; readOnly?: boolean; expires?: string; db: string }) =>
      withTokens(flags.db, (tokens) => {
        const { token, summary } = tokens.create({
          name: flags.name,
          readOnly: flags.readOnly === true,
          expires: flags.expires,
        });
        const expiry = summary.expiresAt ? `, expires ${summary.expiresAt}` : "";
        console.log(`created ${summary.scope} token "${summary.name}"${expiry}`);
        console.log("it is shown only now; send it as Authorization: Bearer <token>:");
        console.log(token);
      }),
    );

  group
    .command("list")
    .description("Name, scope, created, expiry and last use of every token (never the token).")
    .option("--json", "print JSON")
    .addOption(dbOption())
    .action((flags: { json?: boolean; db: string }) =>
      withTokens(flags.db, (tokens) => {
        const list = tokens.list();
        if (flags.json) {
          console.log(JSON.stringify(list, null, 2));
          return;
        }
        const rows = list.map((token) => [
          token.name,
          token.scope,
          token.revokedAt ? `revoked ${token.revokedAt}` : token.usable ? "usable" : "expired",
          token.createdAt,
          token.expiresAt ?? "never",
          token.lastUsedAt ?? "never",
        ]);
        console.log(table(["NAME", "SCOPE", "STATE", "CREATED", "EXPIRES", "LAST USED"], rows));
      }),
    );

  group
    .command("revoke")
    .description("Revoke a token: refused from the next request on, its browser sessions end.")
    .argument("<name>", "the token's name")
    .addOption(dbOption())
    .action((name: string, flags: { db: string }) =>
      withTokens(flags.db, (tokens) => {
        tokens.revoke(name);
        console.log(`revoked token "${name}"`);
      }),
    );
}

/** The same --db option as `tack serve`, so the commands find the server's database. */
function dbOption(): Option {
  return new Option("--db <file>", "SQLite database file")
    .env("TACK_DB_FILE")
    .default("data/tack.sqlite");
}

async function withTokens(
  dbFile: string,
  run: (tokens: import("../domain/access/access-tokens.js").AccessTokens) => void,
): Promise<void> {
  // Loaded on use, so `tack --help` does not pay for SQLite.
  const { openDatabase, StartupError } = await import("../storage/database.js");
  const { accessTokenStore } = await import("../storage/access-tokens.js");
  const { accessTokens } = await import("../domain/access/access-tokens.js");
  const { DomainError } = await import("../domain/errors.js");
  const { renderMarkdown } = await import("../domain/markdown.js");
  const { checklistOf } = await import("../domain/tickets/checklists.js");
  let db: ReturnType<typeof openDatabase> | undefined;
  try {
    // The renderer and parser are only asked for when an old database's stored HTML must be
    // rendered again or its checklists counted.
    db = openDatabase(dbFile, { renderMarkdown, countChecklist: checklistOf });
    run(accessTokens(accessTokenStore(db)));
  } catch (error) {
    const known = error instanceof DomainError || error instanceof StartupError;
    const message = known ? error.message : `unexpected error: ${String(error)}`;
    console.error(`tack: ${message.split("\n")[0]}`);
    process.exitCode = exitCode(error instanceof DomainError ? error.status : undefined);
  } finally {
    db?.close();
  }
}

function exitCode(status: number | undefined): number {
  if (status === 400) return EXIT.usage;
  if (status === 404) return EXIT.notFound;
  if (status === 409) return EXIT.conflict;
  return EXIT.refused;
}
