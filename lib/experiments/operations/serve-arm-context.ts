// POST /api/v1/experiments/{id}/context: the arm's context for one (case, arm, repetition),
// and the facts of what was served recorded on that assignment's run row (created here;
// the report completes it). Facts of a run already reported stay as they were. The first
// context served moves a draft experiment to running. Not audited: agents' run traffic, as ingestion.
import type { Db } from "../../db/prisma";
import { armContext } from "../arm-context";
import { requireOpen, resolveAssignment, type AssignmentInput } from "../assignment";
import { loadExperiment } from "../experiments";

export type ServeArmContextInput = AssignmentInput & { experimentId: string };

export async function serveArmContext(db: Db, input: ServeArmContextInput) {
  const e = await loadExperiment(db, input.experimentId);
  requireOpen(e);
  const { kase, arm } = await resolveAssignment(db, e, input);
  const skill = await db.skill.findUniqueOrThrow({ where: { id: e.skillId } });
  const ctx = await armContext(db, e, skill, arm, kase.request);
  const facts = {
    rawWorkflowCount: ctx.rawWorkflowIds.length,
    rawWorkflowIds: ctx.rawWorkflowIds,
    developerMessage: ctx.developerMessage,
    skillSha256: ctx.skillSha256,
    contextServedAt: new Date(),
  };
  const key = { experimentId: e.id, caseId: kase.caseId, arm: arm.name, repetition: input.repetition };
  await db.$transaction(async (tx) => {
    // Open still, now: a cancel or completion (FOR UPDATE) waits for this key-share lock, or this sees its status.
    const [row] = await tx.$queryRaw<{ status: string }[]>`SELECT status::text FROM experiments WHERE id = ${e.id} FOR KEY SHARE`;
    requireOpen({ ...e, status: row.status as typeof e.status });
    await tx.experimentRun.createMany({ data: [{ ...key, ...facts }], skipDuplicates: true });
    await tx.experimentRun.updateMany({ where: { ...key, reportedAt: null }, data: facts });
    await tx.experiment.updateMany({ where: { id: e.id, status: "DRAFT" }, data: { status: "RUNNING" } });
  });
  return {
    experiment_id: e.id,
    case_id: kase.caseId,
    arm: arm.name,
    mode: arm.mode,
    repetition: input.repetition,
    request: kase.request,
    user_id: kase.userId,
    messages: ctx.assembled.messages,
    ...(ctx.assembled.system !== undefined ? { system: ctx.assembled.system } : {}),
    ...(ctx.assembled.systemInstruction !== undefined ? { system_instruction: ctx.assembled.systemInstruction } : {}),
    raw_workflow_ids: ctx.rawWorkflowIds,
    developer_message: ctx.developerMessage,
    skill_sha256: ctx.skillSha256,
  };
}
