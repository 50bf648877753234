// The address rules (lib/api/request-hygiene.ts), the JSON-text argument rule, and the gate in
// front of Next.js (lib/api/gate.ts) on a loopback server of its own: what it answers itself,
// what it leaves to the app, and the headers it adds.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { readdirSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkQuery, pathProblem, unstorableValues } from "@/lib/api/request-hygiene";
import { parsedArgumentsProblem } from "@/lib/learning/capture/canonical";
import { requestGate } from "@/lib/api/gate";
import { CONSOLE_JSON_ROUTES } from "@/proxy";

describe("address rules", () => {
  it("path segments: bad percent-encoding, bad UTF-8, NUL, lone surrogates and dot segments", () => {
    for (const p of ["/api/v1/workflows/%FF", "/api/v1/workflows/%ED%A0%80", "/a/%E2%82", "/a/%zz", "/a/%00b", "/a/..", "/a/./b", "/a/%2e%2E/b"]) {
      expect(pathProblem(p), p).not.toBeNull();
    }
    for (const p of ["/", "/api/v1/workflows/wf_1", "/api/v1/ledger/procedures/caf%C3%A9%20%F0%9F%98%80", "/a/...", "/a/.b", "/a/%2F"]) {
      expect(pathProblem(p), p).toBeNull();
    }
    expect(pathProblem("/api/v1/workflows/%FF")).toEqual({ path: "/path/4", message: "segment 4 is not valid percent-encoded UTF-8" });
  });

  it("query values: the bad ones are named and dropped, the rest kept as sent", () => {
    expect(checkQuery("page=2&actor=%00&q=a+b&x=%FF&%FE=1")).toEqual({
      problems: [
        { path: "/actor", message: "contains a NUL character" },
        { path: "/x", message: "is not valid percent-encoded UTF-8" },
        { path: "/query", message: "a parameter name is not valid percent-encoded UTF-8" },
      ],
      cleaned: "page=2&q=a+b",
    });
    expect(checkQuery("")).toEqual({ problems: [], cleaned: "" });
    expect(checkQuery("q=%F0%9F%98%80&flag")).toEqual({ problems: [], cleaned: "q=%F0%9F%98%80&flag" });
  });

  it("any valid UTF-8 text, percent-encoded, passes unless it holds a NUL", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (s) => {
        const encoded = encodeURIComponent(s);
        expect(pathProblem(`/x/${encoded}`) === null).toBe(!s.includes("\u0000") && s !== "." && s !== "..");
        expect(checkQuery(`v=${encoded}`).problems.length === 0).toBe(!s.includes("\u0000"));
      }),
    );
  });

  it("decoded values (path parameters, query values)", () => {
    expect(unstorableValues([["ok", "fine"], ["user_id", "a\u0000"], ["q", "\ud800"]])).toEqual([
      { path: "/user_id", message: "contains a NUL character" },
      { path: "/q", message: "contains a lone UTF-16 surrogate" },
    ]);
  });
});

describe("JSON-text arguments", () => {
  it("refuses text whose parsed keys or values PostgreSQL could not store, and nothing else", () => {
    expect(parsedArgumentsProblem('{"a\\u0000": 1}')).toBe("JSON text with a key that contains a NUL character");
    expect(parsedArgumentsProblem('{"nested": {"\\udc00": 1}}')).toBe("JSON text with a key that contains a lone UTF-16 surrogate");
    expect(parsedArgumentsProblem('[{"a": "\\u0000"}]')).toBe("JSON text with a value that contains a NUL character");
    for (const ok of ['{"a": "\\ud83d\\ude00"}', '{"a": 1}', "not json \\u0000", { a: 1 }, null, undefined, '"\\u0000"']) {
      expect(parsedArgumentsProblem(ok), String(ok)).toBeNull();
    }
  });
});

describe("console JSON routes", () => {
  it("every route handler outside app/api is one the proxy answers with 401, not a redirect", () => {
    const app = path.resolve(import.meta.dirname, "../../app");
    const routes = readdirSync(app, { recursive: true, encoding: "utf8" })
      .filter((f) => path.basename(f) === "route.ts" && !f.startsWith(`api${path.sep}`))
      .map((f) => "/" + path.dirname(f).split(path.sep).filter((s) => !/^\(.+\)$/.test(s)).join("/"));
    expect(routes.length).toBeGreaterThan(0);
    for (const r of routes) expect(CONSOLE_JSON_ROUTES.test(r), r).toBe(true);
  });
});

describe("the gate in front of Next.js", () => {
  let base = "";
  let trusted = "";
  const servers: http.Server[] = [];
  const listen = async (gate: ReturnType<typeof requestGate>) => {
    // Behind the gate, the "app" answers 200, or a bare 405 or 500 as Next writes them.
    const s = http.createServer(async (req, res) => {
      if (await gate(req, res)) return;
      if (req.method === "DELETE") return res.writeHead(405).end();
      if (req.method === "PATCH") {
        res.statusCode = 500;
        res.setHeader("content-type", "text/plain");
        return res.end("Internal Server Error");
      }
      req.resume();
      req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
    });
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  };
  beforeAll(async () => {
    base = await listen(requestGate({ trustProxy: false, publicUrl: "http://localhost:3000", sessionCounts: async () => false }));
    trusted = await listen(requestGate({ trustProxy: true, publicUrl: "https://proctor.example", sessionCounts: async () => false }));
  });
  afterAll(() => servers.forEach((s) => s.close()));

  it("answers malformed addresses and anonymous bodies itself, and leaves the rest to the app", async () => {
    expect((await fetch(`${base}/api/v1/x/%FF`)).status).toBe(400);
    const page = await fetch(`${base}/audit?actor=%00&page=2`, { redirect: "manual" });
    expect([page.status, page.headers.get("location")]).toEqual([307, "/audit?page=2"]);
    const anon = await fetch(`${base}/agents`, { method: "POST", body: "x" });
    expect([anon.status, (await anon.json()).code]).toEqual([401, "unauthorized"]);
    const keyed = await fetch(`${base}/api/v1/agents/a/workflows`, { method: "POST", body: "{}", headers: { authorization: "Bearer k" } });
    expect(keyed.status).toBe(200);
    expect((await fetch(`${base}/api/v1/agents/a`)).status).toBe(200);
    const bare = await fetch(`${base}/api/v1/agents/a`, { method: "DELETE" });
    expect([bare.status, bare.headers.get("content-type"), (await bare.json()).code]).toEqual([405, "application/problem+json", "method_not_allowed"]);
    const crash = await fetch(`${base}/api/v1/agents/a`, { method: "PATCH" });
    expect([crash.status, crash.headers.get("content-type"), (await crash.json()).code]).toEqual([503, "application/problem+json", "unavailable"]);
  });

  it("sends HSTS only over https: a https public URL, or a trusted proxy's word", async () => {
    expect((await fetch(`${base}/login`)).headers.get("strict-transport-security")).toBeNull();
    expect((await fetch(`${base}/login`, { headers: { "x-forwarded-proto": "https" } })).headers.get("strict-transport-security")).toBeNull();
    expect((await fetch(`${trusted}/login`)).headers.get("strict-transport-security")).toContain("max-age=");
    const headers = (await fetch(`${base}/login`)).headers;
    expect([headers.get("x-content-type-options"), headers.get("referrer-policy"), headers.get("x-frame-options")]).toEqual(["nosniff", "same-origin", "DENY"]);
  });
});
