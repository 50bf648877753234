import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server";
import { fullLifecycle } from "../helpers/lifecycle";
import { call } from "../helpers/http";
import { admin } from "../helpers/learning";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

describe(`continual-learning lifecycle, template distiller (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("promotes, stamps, injects, demotes on drift, releases, and re-distills v2 from v1's recorded outcomes", async () => {
    const { v1, v2 } = await fullLifecycle(server, "lifecycle-template", { template: true });
    expect(v2.template_distilled).toBe(true);
    // v2 says what became of v1 from its recorded outcomes; the demotion's reason stays in the audit log.
    expect(v2.content).toMatch(/Version 1 was demoted after [\d,]+ runs? with it: [\d,]+ succeeded, [\d,]+ failed/);
    expect(v2.content).not.toContain(v1.demotion_reason);
    // Without an LLM the cycle still works, and says how the skills were made.
    const reports = (await call(server.baseUrl, admin, "GET", `/api/v1/agents/lifecycle-template/promotion-cycles`)).json.reports;
    expect(reports).toHaveLength(2);
    expect(reports[0]).toMatchObject({ distiller: "template" });
    expect(reports[0].review_flags.some((f: string) => f.startsWith("no LLM configured"))).toBe(true);
    const events = await server.sql.query("SELECT event, actor FROM skill_events WHERE skill_id = $1 ORDER BY at, id", [v1.skill_id]);
    expect(events.rows).toEqual([
      { event: "skill_promoted", actor: expect.any(String) },
      { event: "skill_demoted", actor: "system" },
    ]);
    const audits = await server.sql.query("SELECT action, actor_type FROM audit_events WHERE action = 'promotion_cycle.ran' ORDER BY id");
    expect(audits.rows).toEqual([
      { action: "promotion_cycle.ran", actor_type: "api_key" },
      { action: "promotion_cycle.ran", actor_type: "api_key" },
    ]);
  }, 180_000);
});
