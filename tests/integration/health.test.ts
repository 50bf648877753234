import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { anonymous, call, login } from "../helpers/http";
import { listMigrations } from "@/scripts/db/migrate";

let server: TestServer;
beforeAll(async () => {
  // From an empty data dir: the first start (initdb, every migration, the first admin) on PGlite.
  server = await startTestServer({ emptyDataDir: true });
});
afterAll(async () => {
  await server?.stop();
});

describe(`health and login (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("the first start on an empty database applies every migration", async () => {
    const applied = /migrations applied: (.*)/.exec(server.output())?.[1].split(", ");
    expect(applied).toEqual(listMigrations());
  });

  it("reports the database as healthy without auth", async () => {
    const r = await call(server.baseUrl, anonymous, "GET", "/api/health");
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ status: "ok", database: "ok" });
  });

  it("logs the bootstrapped admin in with a JWT session", async () => {
    const admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    const r = await call(server.baseUrl, admin, "GET", "/api/auth/session");
    expect(r.json.user.email).toBe(ADMIN_EMAIL);
    expect(r.json.user.role).toBe("ADMIN");
  });

  it("refuses a wrong password", async () => {
    const bad = await login(server.baseUrl, ADMIN_EMAIL, "wrong");
    const r = await call(server.baseUrl, bad, "GET", "/api/auth/session");
    expect(r.json?.user).toBeUndefined();
  });
});
