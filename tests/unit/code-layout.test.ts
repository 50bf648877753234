// The layout rules of CONTRIBUTING.md that a reviewer cannot check by eye: the import graph of
// lib has no circle, domain code never imports app/, components/, lib/api or lib/actions, and
// the learning engine keeps its files in its pipeline's stage folders (lib/learning/README.md).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return rel === "lib/db/generated" ? [] : sourceFiles(rel);
    return /\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

const CANDIDATES = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"];
/** The repository file an import names, or null for packages. */
function resolveImport(from: string, spec: string): string | null {
  const base = spec.startsWith("@/") ? spec.slice(2) : spec.startsWith(".") ? path.join(path.dirname(from), spec) : null;
  if (base === null) return null;
  for (const ext of CANDIDATES) {
    const candidate = path.normalize(base + ext);
    try {
      if (statSync(path.join(root, candidate)).isFile()) return candidate;
    } catch {
      // not this candidate
    }
  }
  throw new Error(`${from}: cannot resolve '${spec}'`);
}

function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(path.join(root, file), "utf8"), true, true);
  return importedFiles.map((i) => resolveImport(file, i.fileName)).filter((f): f is string => f !== null);
}

/** Every import circle in `graph` (file → the files it imports), each as the path that closes it. */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (f: string) => {
    state.set(f, "open");
    stack.push(f);
    for (const next of graph.get(f) ?? []) {
      if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(f, "done");
  };
  for (const f of graph.keys()) if (!state.has(f)) visit(f);
  return found;
}

describe("code layout", () => {
  const lib = sourceFiles("lib");

  it("lib has no import circle", () => {
    const graph = new Map(lib.map((f) => [f, importsOf(f).filter((t) => t.startsWith("lib/"))]));
    expect(circles(graph).map((c) => c.join(" → "))).toEqual([]);
  });

  it("the circle check finds a circle when there is one", () => {
    expect(circles(new Map([["a.ts", ["b.ts"]], ["b.ts", ["c.ts"]], ["c.ts", ["a.ts"]]]))).toEqual([["a.ts", "b.ts", "c.ts", "a.ts"]]);
    expect(circles(new Map([["a.ts", ["b.ts", "c.ts"]], ["b.ts", ["c.ts"]], ["c.ts", []]]))).toEqual([]);
  });

  it("domain code never imports app/, components/ or the HTTP edge", () => {
    const domain = lib.filter((f) => !/^lib\/(api|actions)\//.test(f));
    const outward = domain.flatMap((f) => importsOf(f).filter((t) => /^(app|components|lib\/api|lib\/actions)\//.test(t)).map((t) => `${f} → ${t}`));
    expect(outward).toEqual([]);
  });

  it("the learning engine keeps its files in its stage folders", () => {
    const topLevel = readdirSync(path.join(root, "lib/learning"), { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
    expect(topLevel.sort()).toEqual(["README.md", "errors.ts", "jobs.ts"]);
  });
});
