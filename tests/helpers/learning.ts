// Helpers for the learning-engine integration tests: agents, runs of a refund procedure, and
// the engine's API calls, all through the real HTTP API.
import { expect } from "vitest";
import { ADMIN_KEY, type TestServer } from "./server";
import { call, withKey } from "./http";

export const admin = withKey(ADMIN_KEY);

export const REFUND_TOOLS = [
  { name: "lookup_order", description: "Find an order" },
  { name: "issue_refund", description: "Refund an order" },
  { name: "send_email", description: "Email a customer" },
];

/**
 * The engine's tests run without review (skills go ACTIVE at once) unless they set
 * require_shadow themselves; review first, the default, is tested in review-gates.test.ts.
 */
const NO_REVIEW = { require_shadow: false, auto_activate: true };

export async function putAgent(server: TestServer, agentId: string, learning: Record<string, unknown> = {}, tools: object[] = REFUND_TOOLS) {
  const r = await call(server.baseUrl, admin, "PUT", `/api/v1/agents/${agentId}`, {
    name: `Agent ${agentId}`,
    tools,
    learning: { promotion_every_n_runs: 0, ...("require_shadow" in learning ? {} : NO_REVIEW), ...learning },
  });
  expect(r.status, r.text).toBe(200);
  return r.json;
}

let seq = 0;

export type RunOptions = {
  orderId?: string;
  query?: string;
  failed?: boolean;
  userId?: string;
  skillsActivated?: string[];
  /** Another tool path (another class): lookup then email. */
  emailPath?: boolean;
};

export function refundRun(o: RunOptions = {}) {
  const orderId = o.orderId ?? `ORD-${10_000 + ++seq}`;
  const steps = o.emailPath
    ? [
        { tool: "lookup_order", arguments: { order_id: orderId }, result: { status: "shipped" } },
        { tool: "send_email", arguments: { order_id: orderId, template: "status" }, result: { sent: true } },
      ]
    : [
        { tool: "lookup_order", arguments: { order_id: orderId }, result: { status: "paid" } },
        { tool: "issue_refund", arguments: { order_id: orderId, amount: 12.5 }, result: { accepted: !o.failed } },
      ];
  return {
    workflow_id: `run-${orderId}-${seq}`,
    query: o.query ?? `Refund order ${orderId}`,
    steps,
    outcome: o.failed ? "failure" : "success",
    ...(o.userId ? { user_id: o.userId } : {}),
    ...(o.skillsActivated ? { skills_activated: o.skillsActivated } : {}),
  };
}

export async function postRun(server: TestServer, agentId: string, o: RunOptions = {}) {
  const r = await call(server.baseUrl, admin, "POST", `/api/v1/agents/${agentId}/workflows`, refundRun(o));
  expect(r.status, r.text).toBe(201);
  return r.json as { id: string; workflow_id: string; canonical_hash: string; promoted_skill_id: string | null };
}

export async function postRuns(server: TestServer, agentId: string, n: number, o: RunOptions = {}) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await postRun(server, agentId, o));
  return out;
}

/** `n` new runs in one batch request; their ids. */
export async function postBatch(server: TestServer, agentId: string, n: number): Promise<string[]> {
  const r = await call(server.baseUrl, admin, "POST", `/api/v1/agents/${agentId}/workflows/batch`, { workflows: Array.from({ length: n }, () => refundRun()) });
  expect(r.status, r.text).toBe(207);
  expect(r.json.results.every((x: { status: number }) => x.status === 201)).toBe(true);
  return r.json.results.map((x: { id: string }) => x.id);
}

export async function cycle(server: TestServer, agentId: string) {
  const r = await call(server.baseUrl, admin, "POST", `/api/v1/agents/${agentId}/promotion-cycles`);
  expect(r.status, r.text).toBe(200);
  return r.json;
}

export async function getSkill(server: TestServer, skillId: string) {
  const r = await call(server.baseUrl, admin, "GET", `/api/v1/skills/${skillId}`);
  expect(r.status, r.text).toBe(200);
  return r.json;
}

export async function context(server: TestServer, agentId: string, body: Record<string, unknown>) {
  const r = await call(server.baseUrl, admin, "POST", `/api/v1/agents/${agentId}/context`, body);
  expect(r.status, r.text).toBe(200);
  return r.json;
}

export async function stampedCount(server: TestServer, skillId: string): Promise<number> {
  const r = await server.sql.query("SELECT count(*)::int AS n FROM workflows WHERE promoted_skill_id = $1", [skillId]);
  return r.rows[0].n;
}

export async function classRuns(server: TestServer, agentId: string, hash: string): Promise<{ id: string; promoted_skill_id: string | null }[]> {
  const r = await server.sql.query("SELECT id, promoted_skill_id FROM workflows WHERE agent_id = $1 AND canonical_hash = $2", [agentId, hash]);
  return r.rows;
}
