// Everything a caller can reach, enumerated from the code itself so that a new route, action or
// page cannot slip past the fuzzer and the access matrix: agent operations from the contract's
// declarations, console server actions from lib/actions/*.ts (their scope and input schema as
// `action()` declared them), route handlers and pages from the files under app/.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { z } from "zod";
import type { Scope } from "../../lib/auth/access";
import { actionDeclaration } from "../../lib/actions/action";
import { v1, type Operation } from "../../lib/api/v1/contract";

const root = path.resolve(import.meta.dirname, "../..");

export const agentOperations = Object.entries(v1 as Record<string, Operation>).map(([id, op]) => ({ id, ...op }));
export type AgentOperation = (typeof agentOperations)[number];

/** A server action as callAction names it ("lib/actions/users.ts#createUser"). */
export type ConsoleAction = { name: string; scope: Scope; input: z.ZodType };

/** Every export of a "use server" file under lib/actions; one not made with action() is an error. */
export async function consoleActions(): Promise<ConsoleAction[]> {
  const out: ConsoleAction[] = [];
  for (const file of readdirSync(path.join(root, "lib/actions")).filter((f) => f.endsWith(".ts")).sort()) {
    const source = readFileSync(path.join(root, "lib/actions", file), "utf8");
    if (!/^\s*"use server";/m.test(source)) continue;
    const mod = (await import(/* @vite-ignore */ path.join(root, "lib/actions", file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      const declared = actionDeclaration(value);
      if (!declared) throw new Error(`lib/actions/${file}#${name} is not declared with action(): the fuzzer and the access matrix cannot see its scope and input`);
      out.push({ name: `lib/actions/${file}#${name}`, ...declared });
    }
  }
  return out;
}

function filesNamed(dir: string, name: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => path.basename(f) === name)
    .map((f) => path.join(dir, f))
    .sort();
}

/** "app/(console)/agents/[agentId]/page.tsx" → "/agents/{agentId}" (route groups dropped). */
const urlOf = (file: string) =>
  "/" +
  path
    .dirname(file)
    .split(path.sep)
    .slice(1)
    .filter((s) => !/^\(.*\)$/.test(s))
    .map((s) => s.replace(/^\[+(?:\.\.\.)?([^\]]+)\]+$/, "{$1}"))
    .join("/");

/** Every route handler under app/ with each HTTP method it exports: "GET /api/console/users". */
export function routeHandlers(): { method: string; path: string; file: string }[] {
  return filesNamed("app", "route.ts").flatMap((file) => {
    const source = readFileSync(path.join(root, file), "utf8");
    const methods = [...source.matchAll(/export (?:const|async function) (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b/g)].map((m) => m[1]);
    return methods.map((method) => ({ method, path: urlOf(file), file }));
  });
}

/** The console's pages (app/(console)): "/workflows/runs/{id}". */
export const consolePages = (): string[] => filesNamed("app/(console)", "page.tsx").map(urlOf);
