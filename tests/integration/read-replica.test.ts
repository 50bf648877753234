// DATABASE_READ_URL (docs/deploy.md "Read replica") on a real streaming replica of the test
// cluster (tests/helpers/replica.ts): the console pages' loaders read the replica while sign-in,
// console actions and the agent API use the primary; a session that changed something reads the
// primary until the replica has replayed its change, while other sessions keep reading the
// replica. Replication lag is made by pausing the replica's replay. PostgreSQL only
// (POSTGRES_ONLY in vitest.integration.config.ts).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, createPostgresDatabase, launchTestServer, type TestServer } from "../helpers/server";
import { call, login, withCookies, type Caller } from "../helpers/http";
import { callAction } from "../helpers/actions";
import { admin as adminKey, cycle, getSkill, postRuns, putAgent } from "../helpers/learning";
import { startReplica, type Replica } from "../helpers/replica";

let replica: Replica;
let primary: Awaited<ReturnType<typeof createPostgresDatabase>>;
let server: TestServer;
/** The reviewer who makes changes, and another session of the console that makes none. */
let reviewer: Caller;
let other: Caller;

beforeAll(async () => {
  replica = await startReplica();
  primary = await createPostgresDatabase({ migrated: true });
  await replica.catchUp();
  server = await launchTestServer({ databaseUrl: primary.url, env: { DATABASE_READ_URL: replica.url(primary.url) } });
  reviewer = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  other = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
}, 240_000);
afterAll(async () => {
  await server?.stop();
  // Replay may still be paused by a failed test: stopping does not wait for it.
  await replica?.stop();
  await primary?.drop();
});

const page = async (who: Caller, path: string) => {
  const r = await call(server.baseUrl, who, "GET", path);
  expect(r.status, `${path}: ${r.text.slice(0, 300)}\n${server.output().slice(-2000)}`).toBe(200);
  return r.text;
};

/** A shadow skill of a new agent, distilled from five runs and replayed on the replica. */
async function shadowSkill(agentId: string): Promise<string> {
  await putAgent(server, agentId, { require_shadow: true });
  await postRuns(server, agentId, 5);
  const report = await cycle(server, agentId);
  expect(report.promoted, JSON.stringify(report)).toHaveLength(1);
  const skillId = report.promoted[0] as string;
  expect((await getSkill(server, skillId)).status).toBe("shadow");
  await replica.catchUp();
  return skillId;
}
/** The active skills list names the skill only once it is active. */
const listsAsActive = async (who: Caller, agentId: string, skillId: string) => (await page(who, `/skills?agent=${agentId}&status=active`)).includes(skillId);

describe("read replica (DATABASE_READ_URL, a streaming replica)", () => {
  it("pages read the replica; the agent API reads and writes the primary", async () => {
    await putAgent(server, "renamed");
    await replica.catchUp();
    await replica.pauseReplay();
    try {
      expect((await call(server.baseUrl, adminKey, "PUT", "/api/v1/agents/renamed", { name: "Name after the change", tools: [] })).status).toBe(200);
      expect((await call(server.baseUrl, adminKey, "GET", "/api/v1/agents/renamed")).json.name).toBe("Name after the change");
      // Nobody's console session wrote: pages show the replica, still before the change.
      const behind = await page(reviewer, "/agents");
      expect(behind).toContain("Agent renamed");
      expect(behind).not.toContain("Name after the change");
    } finally {
      await replica.resumeReplay();
    }
    await replica.catchUp();
    expect(await page(reviewer, "/agents")).toContain("Name after the change");
  });

  it("a reviewer who activates a skill sees it active on reload; another session reads the replica until it replays the change", async () => {
    // A new agent per attempt: a retry's cycle would find the first attempt's class covered.
    const agent = `ryw-${randomBytes(4).toString("hex")}`;
    const skillId = await shadowSkill(agent);
    await replica.pauseReplay();
    let after: Caller;
    try {
      const activated = await callAction(server, reviewer, "lib/actions/skills.ts#activateSkill", { skill_id: skillId, reason: "reviewed the procedure" });
      expect(activated.kind, activated.text.slice(0, 300)).toBe("ok");
      // The browser keeps what the action's answer set.
      after = withCookies(reviewer, activated.setCookies);
      expect(await listsAsActive(after, agent, skillId)).toBe(true);
      // The other session made no change: the lagging replica answers, the skill still in shadow.
      expect(await listsAsActive(other, agent, skillId)).toBe(false);
    } finally {
      await replica.resumeReplay();
    }
    await replica.catchUp();
    expect(await listsAsActive(other, agent, skillId)).toBe(true);

    // Once the replica has replayed the reviewer's change, the reviewer reads the replica again:
    // a later change the replica has not replayed (the agent API, no session) is not seen yet.
    await replica.pauseReplay();
    try {
      expect((await call(server.baseUrl, adminKey, "POST", `/api/v1/skills/${skillId}/demote`, { reason: "drifted" })).status).toBe(200);
      expect((await getSkill(server, skillId)).status).not.toBe("active");
      expect(await listsAsActive(after, agent, skillId)).toBe(true);
    } finally {
      await replica.resumeReplay();
    }
    await replica.catchUp();
    expect(await listsAsActive(after, agent, skillId)).toBe(false);
  });

  it("every console page renders from the hot standby (no loader writes)", async () => {
    await putAgent(server, "pages");
    await replica.catchUp();
    for (const path of ["/", "/agents/pages", "/agents/pages/settings", "/workflows", "/workflows/runs", "/skills", "/traces", "/accounts", "/ledger", "/audit", "/audit?account=acct-1", "/settings/api-keys", "/settings/webhooks"]) {
      await page(other, path);
    }
  });
});
