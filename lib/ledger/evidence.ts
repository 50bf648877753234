// Evidence references Proctor can check: an evidence_ref
// `run:<workflow id>` or `trace:<root trace id>` must name a stored run of the scope's agent.
// Runs carry no tenant (one deployment is one tenant), so the scope's agent stands for it; a
// key bound to a tenant and agents reaches only those (lib/auth/key-reach.ts). Other forms are
// the evaluator's own references and are not resolved.
import { Prisma } from "../db/generated/client";
import { queryRows, type Db, type Tx } from "../db/prisma";
import { UnresolvedReference } from "../errors";
import type { LedgerScope } from "./types";

const RESOLVED = /^(run|trace):/;

/** The run or trace an evidence_ref names, when it is of a form Proctor resolves. */
function evidenceTarget(ref: string): { kind: "run" | "trace"; id: string } | null {
  const m = RESOLVED.exec(ref);
  return m ? { kind: m[1] as "run" | "trace", id: ref.slice(m[0].length) } : null;
}

/** Throws UnresolvedReference (422) when a run:/trace: reference names no stored run of the scope's agent. */
export async function requireStoredEvidence(db: Db | Tx, scope: LedgerScope, ref: string): Promise<void> {
  const target = evidenceTarget(ref);
  if (!target) return;
  // One indexed probe, only for these forms: (agent_id, workflow_id) is unique, (agent_id, root_trace_id) indexed.
  const column = target.kind === "run" ? "workflow_id" : "root_trace_id";
  const found = await queryRows(db, Prisma.sql`SELECT 1 FROM workflows WHERE agent_id = ${scope.agent} AND ${Prisma.raw(column)} = ${target.id} LIMIT 1`);
  if (found.length === 0) {
    const what = target.kind === "run" ? "run (workflow_id)" : "trace (root_trace_id)";
    throw new UnresolvedReference(`The evidence_ref names no stored ${what} of agent '${scope.agent}'.`, [
      { path: "/evidence_ref", message: `no stored ${what} of this scope's agent` },
    ]);
  }
}

/** The stored run behind a resolvable reference, for the procedure page's links. */
export type EvidenceRun = { runId: string; agentId: string; userId: string | null; threadId: string | null; rootTraceId: string | null };

/** The runs that this page's run:/trace: references name (a trace: its earliest run), by reference. */
export async function evidenceRuns(db: Db, scope: LedgerScope, refs: string[]): Promise<Record<string, EvidenceRun>> {
  const targets = refs.map((ref) => ({ ref, target: evidenceTarget(ref) })).filter((t) => t.target !== null);
  if (targets.length === 0) return {};
  const ids = (kind: "run" | "trace") => targets.filter((t) => t.target!.kind === kind).map((t) => t.target!.id);
  const runs = await db.workflowRun.findMany({
    where: { agentId: scope.agent, OR: [{ workflowId: { in: ids("run") } }, { rootTraceId: { in: ids("trace") } }] },
    select: { id: true, agentId: true, workflowId: true, userId: true, threadId: true, rootTraceId: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const out: Record<string, EvidenceRun> = {};
  for (const { ref, target } of targets) {
    const run = runs.find((r) => (target!.kind === "run" ? r.workflowId === target!.id : r.rootTraceId === target!.id));
    if (run) out[ref] = { runId: run.id, agentId: run.agentId, userId: run.userId, threadId: run.threadId, rootTraceId: run.rootTraceId };
  }
  return out;
}
