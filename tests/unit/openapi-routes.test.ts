// Every route under app/api/v1 is in the OpenAPI document with its request and response
// schemas, and every documented v1 operation has a route: a route added without docs (or docs
// left behind by a removed route) fails here.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { v1 } from "@/lib/api/v1/contract";
import { openApiDocument } from "@/lib/api/v1/openapi";

const root = path.resolve(import.meta.dirname, "../..");
const v1Dir = path.join(root, "app/api/v1");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** "app/api/v1/skills/[skill_id]/route.ts" → "/api/v1/skills/{skill_id}", with its exported methods and what each handler reads. */
function routes(): { path: string; method: string; reads: { body: boolean; query: boolean }; declaration?: string }[] {
  // bench/: the benchmarks' floor, served only with PROCTOR_BENCH_FLOOR=1, is not the agent API.
  const files = readdirSync(v1Dir, { recursive: true, encoding: "utf8" }).filter((f) => path.basename(f) === "route.ts" && !f.startsWith("bench" + path.sep));
  return files.flatMap((f) => {
    const urlPath = "/api/v1/" + path.dirname(f).split(path.sep).map((seg) => seg.replace(/^\[(.+)\]$/, "{$1}")).join("/");
    const source = readFileSync(path.join(v1Dir, f), "utf8");
    const exported = METHODS.filter((m) => new RegExp(`export\\s+(const|async\\s+function|function)\\s+${m}\\b`).test(source));
    expect(exported.length, `${f} exports no handler`).toBeGreaterThan(0);
    return exported.map((m) => {
      const handler = source.slice(source.search(new RegExp(`export\\s+\\S+\\s+${m}\\b`))).split(/\nexport /)[0];
      const reads = { body: /[{,]\s*(?:body|req)\b/.test(handler), query: /[{,]\s*query\b/.test(handler) };
      const declaration = handler.match(/route\(\s*(?:\{\s*\.\.\.)?v1\.(\w+)/)?.[1];
      return { path: urlPath.replace(/\/\.$/, ""), method: m.toLowerCase(), reads, declaration };
    });
  });
}

type Schema = { properties: Record<string, unknown> };
type Op = {
  parameters: { name: string; in: string }[];
  "x-reach-by-record"?: Record<string, string>;
  requestBody?: { required: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};

describe("OpenAPI document covers app/api/v1", () => {
  const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, Op>> };
  const found = routes();

  it("finds the route files", () => {
    expect(found).toContainEqual({ path: "/api/v1/skills/{skill_id}/activate", method: "post", reads: { body: true, query: false }, declaration: "activateSkill" });
    expect(found).toContainEqual({ path: "/api/v1/accounts/{user_id}/persona", method: "get", reads: { body: false, query: true }, declaration: "getApprovedPersona" });
    expect(found.length).toBeGreaterThanOrEqual(24);
  });

  it("has every route pass its own operation's declaration to route()", () => {
    for (const r of found) {
      const op = r.declaration ? v1[r.declaration as keyof typeof v1] : undefined;
      expect(op && `${op.method} ${op.path}`, `${r.method} ${r.path} declares ${r.declaration}`).toBe(`${r.method.toUpperCase()} ${r.path}`);
    }
  });

  it("documents every route's path and method, with its path parameters", () => {
    const missing = found.filter((r) => !doc.paths[r.path]?.[r.method]).map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(missing).toEqual([]);
    for (const r of found) {
      const names = [...r.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const documented = doc.paths[r.path][r.method].parameters.filter((p) => p.in === "path").map((p) => p.name);
      expect(documented.sort(), `${r.method} ${r.path}`).toEqual(names.sort());
    }
  });

  it("documents no v1 operation without a route", () => {
    const routed = new Set(found.map((r) => `${r.method} ${r.path}`));
    const stale = Object.values(v1)
      .map((o) => `${o.method.toLowerCase()} ${o.path}`)
      .filter((o) => o.includes(" /api/v1/") && !routed.has(o));
    expect(stale).toEqual([]);
  });

  it("gives every operation a response schema, and a request schema for each input its handler reads", () => {
    for (const r of found) {
      const op = doc.paths[r.path][r.method];
      const where = `${r.method} ${r.path}`;
      const success = Object.entries(op.responses).filter(([status]) => status.startsWith("2"));
      expect(success.length, where).toBeGreaterThan(0);
      // JSON, a JSON-lines stream (one line's schema) or a file answer (an archive), each under its own media type.
      for (const [status, res] of success) expect(Object.values(res.content ?? {})[0]?.schema, `${where} ${status}`).toBeTypeOf("object");
      expect(op.requestBody !== undefined, `${where} request body`).toBe(r.reads.body);
      expect(op.parameters.some((p) => p.in === "query"), `${where} query parameters`).toBe(r.reads.query);
    }
  });

  it("states the record a path names by id, whose agent a bound key must reach, as the declaration does", () => {
    for (const [id, op] of Object.entries(v1)) {
      const documented = doc.paths[op.path][op.method.toLowerCase()];
      expect(documented["x-reach-by-record"], id).toEqual("reachByRecord" in op ? op.reachByRecord : undefined);
      if ("reachByRecord" in op) for (const param of Object.values(op.reachByRecord)) expect(documented.parameters, id).toContainEqual(expect.objectContaining({ name: param, in: "path" }));
    }
    expect(doc.paths["/api/v1/workflows/{id}"].get["x-reach-by-record"]).toEqual({ workflow: "id" });
  });

  it("resolves every $ref from the document's root (recursive schemas live in components)", () => {
    const text = JSON.stringify(doc);
    const refs = new Set([...text.matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]));
    expect(refs).toContain("#/components/schemas/JsonValue");
    type Node = { [key: string]: Node } | undefined;
    const resolve = (ref: string) => ref.slice(2).split("/").reduce<Node>((node, key) => node?.[key.replaceAll("~1", "/").replaceAll("~0", "~")], doc as unknown as Node);
    expect([...refs].filter((ref) => !ref.startsWith("#/") || resolve(ref) === undefined)).toEqual([]);
    expect(text).not.toContain('"$defs"');
  });

  it("gives the learning and persona operations their request and response schemas", () => {
    const op = (p: string, m: string) => doc.paths[p][m];
    const activate = op("/api/v1/skills/{skill_id}/activate", "post");
    expect(activate.requestBody?.required).toBe(false);
    expect(Object.keys(activate.requestBody!.content["application/json"].schema.properties)).toEqual(["injection_role", "reason", "confirm_scripts"]);
    expect(activate.responses["200"].content!["application/json"].schema.properties).toHaveProperty("readiness");
    expect(Object.keys(op("/api/v1/agents/{agent_id}/context", "post").requestBody!.content["application/json"].schema.properties)).toContain("memories");
    expect(op("/api/v1/agents/{agent_id}/promotion-cycles", "get").responses["200"].content!["application/json"].schema.properties).toHaveProperty("reports");
    expect(op("/api/v1/accounts/{user_id}/persona", "get").responses["200"].content!["application/json"].schema.properties).toHaveProperty("reference");
  });
});
