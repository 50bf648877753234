// Persona test helpers: data goes in through the agent API (agents, conversations), actions
// and reads through the console routes, exactly as agents and admins use them.
import { expect } from "vitest";
import { ADMIN_KEY, type TestServer } from "./server";
import { call, withKey, type Caller } from "./http";

export async function putAgent(server: TestServer, agentId: string, name = "Tutor bot") {
  const r = await call(server.baseUrl, withKey(ADMIN_KEY), "PUT", `/api/v1/agents/${agentId}`, { name, tools: [] });
  expect(r.status, r.text).toBe(200);
}

let clock = Date.parse("2026-11-30T09:00:00Z");

/** Posts user messages (one per text) to a thread, with increasing timestamps. */
export async function postMessages(server: TestServer, agentId: string, userId: string, threadId: string, texts: string[], role = "user") {
  const messages = texts.map((text) => ({ role, text, timestamp: new Date((clock += 1000)).toISOString() }));
  const r = await call(server.baseUrl, withKey(ADMIN_KEY), "POST", `/api/v1/agents/${agentId}/conversations`, { thread_id: threadId, user_id: userId, messages });
  expect(r.status, r.text).toBe(201);
}

export function act(server: TestServer, caller: Caller, body: unknown, extra: Record<string, string> = {}) {
  return call(server.baseUrl, caller, "POST", "/persona-evolution/action", body, extra);
}

export function viewState(server: TestServer, caller: Caller, userId: string) {
  return call(server.baseUrl, caller, "GET", `/persona-evolution/state?user_id=${encodeURIComponent(userId)}`);
}

export function viewPage(server: TestServer, caller: Caller, userId: string) {
  return call(server.baseUrl, caller, "GET", `/persona-evolution?user_id=${encodeURIComponent(userId)}`);
}

export async function auditRows(server: TestServer, action?: string) {
  const r = await server.sql.query(
    `SELECT action, target_type, target_id, actor_id, details, request_id FROM audit_events WHERE action LIKE 'persona%' ${action ? "AND action = $1" : ""} ORDER BY id`,
    action ? [action] : [],
  );
  return r.rows as { action: string; target_type: string; target_id: string; actor_id: string; details: Record<string, unknown> }[];
}

/** Makes audit_events refuse inserts (a full disk, a revoked grant…) until `restore` runs. */
export async function breakAuditLog(server: TestServer) {
  await server.sql.query(`CREATE OR REPLACE FUNCTION test_refuse_audit() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'audit log unavailable'; END; $$ LANGUAGE plpgsql`);
  await server.sql.query(`CREATE TRIGGER test_refuse_audit BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION test_refuse_audit()`);
  return async () => {
    await server.sql.query(`DROP TRIGGER IF EXISTS test_refuse_audit ON audit_events`);
  };
}

export async function personaRow(server: TestServer, userId: string) {
  const r = await server.sql.query(`SELECT * FROM account_personas WHERE user_id = $1`, [userId]);
  return r.rows[0] ?? null;
}

export async function count(server: TestServer, table: string, userId: string): Promise<number> {
  const r = await server.sql.query(`SELECT count(*)::int AS n FROM ${table} WHERE user_id = $1`, [userId]);
  return r.rows[0].n;
}
