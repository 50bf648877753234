// Reading experiments: the row with its arms parsed, and the wire view of it.
import type { Db, Tx } from "../db/prisma";
import type { Experiment } from "../db/generated/client";
import { NotFound } from "../errors";
import type { Arm } from "./scoring";

export async function loadExperiment(db: Db | Tx, id: string): Promise<Experiment> {
  const row = await db.experiment.findUnique({ where: { id } });
  if (!row) throw new NotFound(`Experiment '${id}'`);
  return row;
}

export const armsOf = (e: Pick<Experiment, "arms">): Arm[] => e.arms as Arm[];

export type ExperimentStatusName = "draft" | "running" | "completed" | "cancelled";
export const statusName = (e: Pick<Experiment, "status">) => e.status.toLowerCase() as ExperimentStatusName;

/** What the agent API answers for an experiment (its cases and progress are in the report). */
/** What names an experiment wherever it is listed or shown. */
export function experimentIdentity(e: Experiment) {
  return {
    experiment_id: e.id,
    agent_id: e.agentId,
    skill_id: e.skillId,
    skill_version: e.skillVersion,
    name: e.name,
    status: statusName(e),
    model: e.model,
  };
}

export function experimentView(e: Experiment, progress: { expected: number; reported: number }) {
  return {
    ...experimentIdentity(e),
    repetitions: e.repetitions,
    arms: armsOf(e).map((a) => ({ name: a.name, mode: a.mode, ...(a.n !== undefined ? { n: a.n } : {}) })),
    baseline_arm: e.baselineArm,
    provider: e.provider,
    bootstrap_seed: e.bootstrapSeed,
    created_by: e.createdBy,
    created_at: e.createdAt.toISOString(),
    completed_at: e.completedAt?.toISOString() ?? null,
    progress,
  };
}
export type ExperimentView = ReturnType<typeof experimentView>;

/** Every (case, arm, repetition) of the experiment. */
export const expectedRuns = (e: Pick<Experiment, "arms" | "repetitions">, cases: number) => cases * armsOf(e).length * e.repetitions;

/** Assignments in all and reported so far. */
export async function experimentProgress(db: Db | Tx, e: Experiment): Promise<{ expected: number; reported: number }> {
  const [cases, reported] = await Promise.all([
    db.experimentCase.count({ where: { experimentId: e.id } }),
    db.experimentRun.count({ where: { experimentId: e.id, reportedAt: { not: null } } }),
  ]);
  return { expected: expectedRuns(e, cases), reported };
}

/** GET /api/v1/experiments/{id}. */
export async function getExperiment(db: Db, id: string): Promise<ExperimentView> {
  const e = await loadExperiment(db, id);
  return experimentView(e, await experimentProgress(db, e));
}
