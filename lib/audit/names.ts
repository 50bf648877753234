// Names for the records audit events point at, resolved for one page of events in one query per
// record type: users by email, API keys by name, agents and skills by name. Accounts are
// pseudonyms in the rows: for a reader of personas the page computes the pseudonyms of accounts
// that have a persona (the only ones persona events can name openably) to find their plain ids;
// a forgotten account has none left and stays a pseudonym.
import type { Db } from "../db/prisma";
import { pseudonym, pseudonymKey } from "../auth/instance-secret";
import type { AuditEvent } from "./events";

export type SkillName = { name: string; version: number; agentId: string };

export type AuditNames = {
  user: Record<string, string>;
  api_key: Record<string, string>;
  agent: Record<string, string>;
  skill: Record<string, SkillName>;
  /** pseudonym → the plain account id an admin searched by. */
  account: Record<string, string>;
};

export const NO_NAMES: AuditNames = { user: {}, api_key: {}, agent: {}, skill: {}, account: {} };

/** The ids each event names, by record type (targets, the agent of a skill or job, the skills a cycle touched). */
function idsOf(events: AuditEvent[]) {
  const ids = { user: new Set<string>(), api_key: new Set<string>(), agent: new Set<string>(), skill: new Set<string>() };
  for (const e of events) {
    if (e.target.type !== "job" && e.target.type !== "account" && e.target.type !== "webhook" && e.target.type !== "experiment") ids[e.target.type].add(e.target.id);
    if ("agent_id" in e.data && e.data.agent_id) ids.agent.add(e.data.agent_id);
    if (e.target.type === "experiment" && "skill_id" in e.data) ids.skill.add(e.data.skill_id);
    if (e.type === "promotion_cycle.ran" || e.type === "class.distilled") for (const id of [...e.data.promoted, ...e.data.deprecated]) ids.skill.add(id);
  }
  return ids;
}

const byId = <T extends { id: string }, V>(rows: T[], value: (r: T) => V) => Object.fromEntries(rows.map((r) => [r.id, value(r)]));

/** At most this many accounts with a persona are hashed per page view to name account rows. */
export const ACCOUNT_NAME_LIMIT = 20_000;

/** pseudonym → plain id for the account targets among `events` that still have a persona. */
async function accountNames(db: Db, events: AuditEvent[]): Promise<Record<string, string>> {
  const wanted = new Set(events.flatMap((e) => (e.target.type === "account" ? [e.target.id] : [])));
  if (wanted.size === 0) return {};
  const [key, rows] = await Promise.all([
    pseudonymKey(db),
    db.accountPersona.findMany({ select: { userId: true }, orderBy: { userId: "asc" }, take: ACCOUNT_NAME_LIMIT }),
  ]);
  const out: Record<string, string> = {};
  for (const { userId } of rows) {
    const p = pseudonym(key, "account", userId);
    if (wanted.has(p)) out[p] = userId;
  }
  return out;
}

/** `resolveAccounts`: whether the reader may open personas (then account rows are named). */
export async function auditNames(db: Db, events: AuditEvent[], account?: { pseudonym: string; userId: string }, resolveAccounts = false): Promise<AuditNames> {
  const ids = idsOf(events);
  const list = (s: Set<string>) => ({ in: [...s] });
  const [users, keys, agents, skills, accounts] = await Promise.all([
    ids.user.size ? db.user.findMany({ where: { id: list(ids.user) }, select: { id: true, email: true } }) : [],
    ids.api_key.size ? db.apiKey.findMany({ where: { id: list(ids.api_key) }, select: { id: true, name: true } }) : [],
    ids.agent.size ? db.agent.findMany({ where: { id: list(ids.agent) }, select: { id: true, name: true } }) : [],
    ids.skill.size ? db.skill.findMany({ where: { id: list(ids.skill) }, select: { id: true, name: true, version: true, agentId: true } }) : [],
    resolveAccounts ? accountNames(db, events) : {},
  ]);
  return {
    user: byId(users, (u) => u.email),
    api_key: byId(keys, (k) => k.name),
    agent: byId(agents, (a) => a.name),
    skill: byId(skills, (s) => ({ name: s.name, version: s.version, agentId: s.agentId })),
    account: { ...accounts, ...(account ? { [account.pseudonym]: account.userId } : {}) },
  };
}
