import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import ts from "typescript";

// The web UI types the API from the server's TypeBox schemas (ui/src/types.ts), so `npm run
// typecheck` fails in the UI when a field is renamed or retyped on the server. That only holds
// while nobody writes a copy by hand again: a hand-written interface compiles just as well and
// drifts silently. These checks read the source (no browser, no server).

const root = fileURLToPath(new URL("../..", import.meta.url));
const uiSource = join(root, "ui/src");
const SCHEMAS = "../../src/http/schemas/";

function parse(path: string): ts.SourceFile {
  return ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
}

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

/** Whether a type node mentions `typeof X` for one of `schemaNames`, or one of `aliases`. */
function derives(type: ts.Node, schemaNames: Set<string>, aliases: Set<string>): boolean {
  let found = false;
  walk(type, (node) => {
    if (ts.isTypeQueryNode(node) && schemaNames.has(node.exprName.getText())) found = true;
    if (ts.isTypeReferenceNode(node) && aliases.has(node.typeName.getText())) found = true;
  });
  return found;
}

test("ui/src/types.ts only derives types from the server's schemas", () => {
  const file = parse(join(uiSource, "types.ts"));
  const schemaNames = new Set<string>();
  const aliases = new Set<string>();
  const problems: string[] = [];
  for (const statement of file.statements) {
    const line = file.getLineAndCharacterOfPosition(statement.getStart()).line + 1;
    const where = `types.ts:${line}`;
    if (ts.isImportDeclaration(statement)) {
      const from = (statement.moduleSpecifier as ts.StringLiteral).text;
      const clause = statement.importClause;
      // Type-only: the build erases it, so no server code reaches the bundle.
      if (!clause?.isTypeOnly)
        problems.push(`${where}: import from ${from} is not \`import type\``);
      if (from !== "@sinclair/typebox" && !from.startsWith(SCHEMAS)) {
        problems.push(`${where}: imports ${from}, not a server schema`);
      }
      const bindings = clause?.namedBindings;
      if (from.startsWith(SCHEMAS) && bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) schemaNames.add(element.name.text);
      }
    } else if (ts.isTypeAliasDeclaration(statement)) {
      const name = statement.name.text;
      if (!derives(statement.type, schemaNames, aliases)) {
        problems.push(`${where}: ${name} is not derived from a server schema`);
      }
      // Fields of its own are allowed only beside a server type (`Server & { extra }`), for a
      // client-side shape, and say why in a comment.
      walk(statement.type, (node) => {
        if (!ts.isTypeLiteralNode(node)) return;
        const parent = node.parent;
        const beside =
          ts.isIntersectionTypeNode(parent) &&
          parent.types.some((part) => part !== node && derives(part, schemaNames, aliases));
        if (!beside) problems.push(`${where}: ${name} writes an object type by hand`);
      });
      const plain = /^Static<typeof \w+>$/.test(statement.type.getText());
      const commented = ts.getLeadingCommentRanges(file.text, statement.getFullStart())?.length;
      if (!plain && !commented) problems.push(`${where}: ${name} needs a comment saying why`);
      aliases.add(name);
    } else {
      problems.push(`${where}: only type imports and type aliases belong here`);
    }
  }
  assert.deepEqual(problems, []);
  assert.ok(aliases.has("Ticket") && aliases.has("Lane"), "the file was read");
});

test("no other UI file declares its own type under a server schema's name", () => {
  // The names the server's schema files export (Ticket, Lane, TrashItem, SessionState, ...):
  // the resources' in src/model, the requests' and answers' in src/http/schemas.
  const serverNames = new Set<string>();
  const schemaFiles = ["src/model", "src/http/schemas"].flatMap((folder) =>
    readdirSync(join(root, folder)).map((name) => join(root, folder, name)),
  );
  for (const path of schemaFiles) {
    for (const statement of parse(path).statements) {
      const exported = ts
        .getModifiers(statement as ts.HasModifiers)
        ?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
      if (exported && ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          serverNames.add(declaration.name.getText());
        }
      }
    }
  }
  assert.ok(serverNames.has("TicketSummary") && serverNames.has("TrashItem"));

  const problems: string[] = [];
  const files = readdirSync(uiSource, { recursive: true, encoding: "utf8" });
  for (const relative of files.filter((path) => /\.tsx?$/.test(path))) {
    if (relative === "types.ts") continue;
    const file = parse(join(uiSource, relative));
    walk(file, (node) => {
      if (!ts.isInterfaceDeclaration(node) && !ts.isTypeAliasDeclaration(node)) return;
      const name = node.name.text;
      if (!serverNames.has(name)) return;
      // `type X = Static<typeof X>` (an alias of the schema itself) is fine; a copy is not.
      const derived =
        ts.isTypeAliasDeclaration(node) && derives(node.type, serverNames, new Set<string>());
      if (!derived) problems.push(`ui/src/${relative}: ${name} restates the server's ${name}`);
    });
  }
  assert.deepEqual(problems, []);
});
