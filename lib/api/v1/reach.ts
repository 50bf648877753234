// How a record addressed by its own id finds its agent. An operation that reads or changes one
// record by the id in its path (a skill, an experiment, a run) declares it in
// lib/api/v1/contract.ts as `reachByRecord: { skill: "skill_id" }`, and route()
// (lib/api/handler.ts) calls recordRefusal before the handler runs: for a key bound to agents,
// one lookup of the record's agent, and another agent's record is answered as not found with the
// same words as a missing one, so nothing tells that it exists (lib/auth/key-reach.ts). Users
// and unbound keys skip the lookup: the handler's own read answers a missing record.
import type { Actor } from "../../auth/actor";
import { bindsAgents, reachesAgent } from "../../auth/key-reach";
import { db, type Db } from "../../db/client";
import { NotFound } from "../../errors";

type RecordLookup = {
  /** What a not-found answer calls it: "Skill 'x' was not found.", as the record's own read says. */
  name: string;
  /** The stored record's agent, or null when there is no such record. */
  agentOf: (db: Db, id: string) => Promise<{ agentId: string } | null>;
};

const RECORDS = {
  skill: { name: "Skill", agentOf: (d, id) => d.skill.findUnique({ where: { id }, select: { agentId: true } }) },
  experiment: { name: "Experiment", agentOf: (d, id) => d.experiment.findUnique({ where: { id }, select: { agentId: true } }) },
  workflow: { name: "Workflow", agentOf: (d, id) => d.workflowRun.findUnique({ where: { id }, select: { agentId: true } }) },
} satisfies Record<string, RecordLookup>;

export type RecordKind = keyof typeof RECORDS;

type ParamName<P> = P extends object ? Extract<keyof P, string> : never;

/** Which path parameter holds the id of which kind of record, one kind per operation: `{ skill: "skill_id" }`. */
export type RecordReach<P = Record<string, unknown>> = { [K in RecordKind]: { readonly [k in K]: ParamName<P> } }[RecordKind];

/** NotFound when `actor` is a key bound to agents and the record `byRecord` names is missing or of another agent; else null. */
export async function recordRefusal(actor: Actor | null, byRecord: RecordReach, params: Record<string, unknown>): Promise<NotFound | null> {
  if (!bindsAgents(actor)) return null;
  for (const [kind, param] of Object.entries(byRecord) as [RecordKind, string][]) {
    const id = String(params[param]);
    const record = await RECORDS[kind].agentOf(db(), id);
    if (!record || !reachesAgent(actor, record.agentId)) return new NotFound(`${RECORDS[kind].name} '${id}'`);
  }
  return null;
}
