// Server actions refuse text PostgreSQL cannot store as the agent API does: a lone UTF-16
// surrogate (which the driver would write as U+FFFD) or a NUL is a validation error naming the
// field, and nothing is written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { login, type Caller } from "../helpers/http";
import { callAction } from "../helpers/actions";
import { changedTables, rowCounter } from "../helpers/row-counts";
import { HOSTILE_TEXT } from "../helpers/hostile-text";

let server: TestServer;
let admin: Caller;

beforeAll(async () => {
  server = await startTestServer();
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  await server?.stop();
});

describe(`server action text (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("a lone surrogate or a NUL in an argument is refused naming the field; nothing is stored", async () => {
    const counts = await rowCounter(server.sql);
    const before = await counts();
    for (const [name, message] of [
      [HOSTILE_TEXT.loneSurrogate, "contains a lone UTF-16 surrogate"],
      ["nul \u0000 key", "contains a NUL character"],
    ]) {
      const r = await callAction(server, admin, "lib/actions/api-keys.ts#createApiKey", { name, scopes: ["ingest"] });
      expect(r.kind).toBe("validation_error");
      expect(r.error?.fields).toEqual([{ path: "/name", message }]);
    }
    expect(changedTables(before, await counts())).toEqual([]);
    const ok = await callAction(server, admin, "lib/actions/api-keys.ts#createApiKey", { name: "surrogate pair \ud83d\ude00", scopes: ["ingest"] });
    expect(ok.kind).toBe("ok");
  });
});
