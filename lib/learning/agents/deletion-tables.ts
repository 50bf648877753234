// What deleting an agent removes, in order, one table at a time: dependents before
// what they point at, so no batch cascades into another table's rows. Audit rows stay; ledger
// procedures of the agent's scope (any tenant and environment) only when asked. The deletion
// job itself is a row of `jobs` and is kept until the worker finishes it.
import { Prisma } from "../../db/generated/client";

export const AGENT_DELETION_JOB = "agent_deletion";

export type DeletionStep = { table: string; where: Prisma.Sql; ledger?: true };

const byAgent = (agentId: string) => Prisma.sql`agent_id = ${agentId}`;

export function deletionSteps(agentId: string, includeLedger: boolean): DeletionStep[] {
  const agent = byAgent(agentId);
  const ledger = Prisma.sql`agent = ${agentId}`;
  const experiment = Prisma.sql`experiment_id IN (SELECT id FROM experiments WHERE agent_id = ${agentId})`;
  const steps: DeletionStep[] = [
    { table: "shadow_evaluations", where: agent },
    { table: "skill_deviations", where: agent },
    { table: "workflows", where: agent },
    { table: "trajectory_class_queries", where: agent },
    { table: "trajectory_class_days", where: agent },
    { table: "trajectory_class_users", where: agent },
    { table: "trajectory_classes", where: agent },
    { table: "experiment_runs", where: experiment },
    { table: "experiment_cases", where: experiment },
    { table: "experiments", where: agent },
    { table: "skill_events", where: agent },
    { table: "skill_files", where: agent },
    { table: "skill_imports", where: agent },
    { table: "skills", where: agent },
    { table: "promotion_reports", where: agent },
    { table: "jobs", where: Prisma.sql`agent_id = ${agentId} AND kind <> ${AGENT_DELETION_JOB}` },
    { table: "conversation_messages", where: agent },
    { table: "otlp_unmapped_traces", where: agent },
    { table: "agent_run_counters", where: agent },
  ];
  const ledgerSteps: DeletionStep[] = [
    { table: "ledger_evaluations", where: ledger, ledger: true },
    { table: "ledger_decisions", where: ledger, ledger: true },
    { table: "ledger_procedures", where: ledger, ledger: true },
  ];
  return includeLedger ? [...steps, ...ledgerSteps] : steps;
}

/** Deletes at most `limit` rows of the step (a TID scan of the rows one indexed read found). */
export const batchDeleteSql = (step: DeletionStep, limit: number) => Prisma.sql`
  DELETE FROM ${Prisma.raw(step.table)}
  WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${Prisma.raw(step.table)} WHERE ${step.where} LIMIT ${limit}::int))`;

/** Every row left of the step, for the final sweep under the agent row's lock. */
export const sweepSql = (step: DeletionStep) => Prisma.sql`DELETE FROM ${Prisma.raw(step.table)} WHERE ${step.where}`;
