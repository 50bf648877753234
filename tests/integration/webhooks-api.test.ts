// Webhook endpoints managed over the agent API with an admin key (infrastructure as code): the
// operations the console's Settings → Webhooks calls, declared in the served OpenAPI document,
// audited as the key; the URL policy applies as in the console; secrets only in their answers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server";
import { call } from "../helpers/http";
import { admin } from "../helpers/learning";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { PROCTOR_WORKER: "0" } });
});
afterAll(async () => {
  await server?.stop();
});

const api = (method: string, path: string, body?: unknown) => call(server.baseUrl, admin, method, `/api/v1/webhooks${path}`, body);

describe(`the webhook endpoints API (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("is declared in the served OpenAPI document", async () => {
    const doc = (await call(server.baseUrl, admin, "GET", "/api/v1/openapi.json")).json;
    expect(Object.keys(doc.paths).filter((p) => p.startsWith("/api/v1/webhooks")).sort()).toEqual([
      "/api/v1/webhooks",
      "/api/v1/webhooks/{id}",
      "/api/v1/webhooks/{id}/deliveries",
      "/api/v1/webhooks/{id}/rotate-secret",
    ]);
    expect(Object.keys(doc.paths["/api/v1/webhooks"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/api/v1/webhooks/{id}"]).sort()).toEqual(["delete", "put"]);
  });

  it("creates, lists, updates, rotates the secret of, lists the deliveries of and deletes an endpoint, audited as the key", async () => {
    const created = await api("POST", "", { url: "http://127.0.0.1:9/hook?token=t", description: "pager", events: ["skill.activated", "job.dead"] });
    expect(created.status, created.text).toBe(201);
    expect(created.json.secret).toMatch(/^whsec_/);
    const id = created.json.endpoint.id as string;
    expect(created.json.endpoint).toMatchObject({ url: "http://127.0.0.1:9/hook?token=t", description: "pager", events: ["skill.activated", "job.dead"], enabled: true });

    const listed = await api("GET", "");
    expect(listed.status).toBe(200);
    expect(listed.json.endpoints.map((e: { id: string }) => e.id)).toEqual([id]);
    expect(listed.text).not.toContain(created.json.secret.slice(6));

    const updated = await api("PUT", `/${id}`, { url: "http://127.0.0.1:9/other", events: ["skill.demoted"], enabled: false });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json).toMatchObject({ id, url: "http://127.0.0.1:9/other", description: "", events: ["skill.demoted"], enabled: false });

    const rotated = await api("POST", `/${id}/rotate-secret`);
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.json.id).toBe(id);
    expect(rotated.json.secret).toMatch(/^whsec_/);
    expect(rotated.json.secret).not.toBe(created.json.secret);

    await server.sql.query(
      "INSERT INTO webhook_deliveries (id, endpoint_id, event_type, payload, status, attempts) VALUES ('msg_api_1', $1, 'skill.demoted', '{}', 'FAILED', 3)",
      [id],
    );
    const deliveries = await api("GET", `/${id}/deliveries?limit=10`);
    expect(deliveries.status, deliveries.text).toBe(200);
    expect(deliveries.json.deliveries).toMatchObject([{ id: "msg_api_1", event: "skill.demoted", status: "failed", attempts: 3 }]);
    expect((await api("GET", `/${id}/deliveries?limit=1000`)).status).toBe(400);

    const deleted = await api("DELETE", `/${id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.json).toEqual({ id, deleted: true });
    expect((await api("GET", "")).json.endpoints).toEqual([]);
    expect((await api("GET", `/${id}/deliveries`)).status).toBe(404);
    expect((await api("PUT", `/${id}`, { url: "http://127.0.0.1:9/x", events: ["job.dead"] })).status).toBe(404);

    const audit = (await server.sql.query("SELECT action, actor_type FROM audit_events WHERE target_id = $1 ORDER BY id", [id])).rows;
    expect(audit.map((a) => a.action)).toEqual(["webhook_endpoint.created", "webhook_endpoint.updated", "webhook_endpoint.secret_rotated", "webhook_endpoint.deleted"]);
    expect(new Set(audit.map((a) => a.actor_type))).toEqual(new Set(["api_key"]));
    const everything = JSON.stringify((await server.sql.query("SELECT * FROM audit_events")).rows);
    for (const s of [created.json.secret, rotated.json.secret]) expect(everything).not.toContain(s.slice(6));
  });

  it("refuses internal addresses and bad input with problem+json, writing nothing", async () => {
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://10.0.0.1:5432/", "http://[fd00::1]/", "ftp://example.com/"]) {
      const r = await api("POST", "", { url, events: ["job.dead"] });
      expect(r.status, url).toBe(400);
      expect(r.headers.get("content-type")).toContain("application/problem+json");
      expect(r.json.errors.map((e: { path: string }) => e.path)).toEqual(["/url"]);
    }
    expect((await api("POST", "", { url: "http://127.0.0.1:9/", events: [] })).status).toBe(400);
    expect((await server.sql.query("SELECT count(*)::int AS n FROM webhook_endpoints")).rows[0].n).toBe(0);
  });
});
