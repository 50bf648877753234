// Every regular expression written in lib/, found by parsing the sources with the TypeScript
// compiler (so a new pattern anywhere is seen without being registered): literals, and
// `new RegExp(...)` / `RegExp(...)` whose arguments are constants of the same file. A RegExp
// built from something the parser cannot resolve is reported as unresolved.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

export type FoundPattern = { where: string; source: string; flags: string };
export type Unresolved = { where: string; text: string };

/** Prisma's generated client is not ours to rewrite. */
const GENERATED = join("lib", "db", "generated");

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path.endsWith(GENERATED) ? [] : sourceFiles(path);
    return /\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });

/** A file's top-level `const NAME = <string>` declarations, evaluated in order. */
function fileConstants(file: ts.SourceFile): Map<string, string> {
  const constants = new Map<string, string>();
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement) || !(statement.declarationList.flags & ts.NodeFlags.Const)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name) || !declaration.initializer) continue;
      const value = evaluate(declaration.initializer, constants);
      if (value !== undefined) constants.set(declaration.name.text, value);
    }
  }
  return constants;
}

/** The string a constant expression evaluates to, or undefined when it is not constant here. */
function evaluate(node: ts.Expression, constants: Map<string, string>): string | undefined {
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) return evaluate(node.expression, constants);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isIdentifier(node)) return constants.get(node.text);
  if (ts.isRegularExpressionLiteral(node)) return undefined;
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = evaluate(node.left, constants);
    const right = evaluate(node.right, constants);
    return left === undefined || right === undefined ? undefined : left + right;
  }
  if (ts.isTemplateExpression(node)) return template(node, constants, false);
  if (ts.isTaggedTemplateExpression(node) && node.tag.getText() === "String.raw") {
    const tpl = node.template;
    if (ts.isNoSubstitutionTemplateLiteral(tpl)) return tpl.rawText;
    return template(tpl, constants, true);
  }
  // `SOMETHING.source` of a literal regex constant is resolved through the literal's text.
  if (ts.isPropertyAccessExpression(node) && node.name.text === "source" && ts.isIdentifier(node.expression)) {
    return constants.get(`${node.expression.text}.source`);
  }
  return undefined;
}

function template(node: ts.TemplateExpression, constants: Map<string, string>, raw: boolean): string | undefined {
  let out = raw ? node.head.rawText : node.head.text;
  for (const span of node.templateSpans) {
    const value = evaluate(span.expression, constants);
    if (value === undefined || out === undefined) return undefined;
    out += value + (raw ? span.literal.rawText : span.literal.text);
  }
  return out;
}

const literalParts = (text: string) => {
  const end = text.lastIndexOf("/");
  return { source: text.slice(1, end), flags: text.slice(end + 1) };
};

export function collectLibPatterns(root: string): { patterns: FoundPattern[]; unresolved: Unresolved[] } {
  const patterns: FoundPattern[] = [];
  const unresolved: Unresolved[] = [];
  for (const path of sourceFiles(join(root, "lib"))) {
    const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
    const constants = fileConstants(file);
    for (const statement of file.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const d of statement.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && d.initializer && ts.isRegularExpressionLiteral(d.initializer)) {
          constants.set(`${d.name.text}.source`, literalParts(d.initializer.text).source);
        }
      }
    }
    const where = (node: ts.Node) =>
      `${relative(root, path)}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}`;
    const visit = (node: ts.Node): void => {
      if (ts.isRegularExpressionLiteral(node)) {
        patterns.push({ where: where(node), ...literalParts(node.text) });
      } else if (
        (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === "RegExp"
      ) {
        const [sourceArg, flagsArg] = node.arguments ?? [];
        const source = sourceArg && evaluate(sourceArg, constants);
        const flags = flagsArg ? evaluate(flagsArg, constants) : "";
        if (source === undefined || flags === undefined) unresolved.push({ where: where(node), text: node.getText(file) });
        else patterns.push({ where: where(node), source, flags });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return { patterns, unresolved };
}
