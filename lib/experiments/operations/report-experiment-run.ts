// POST /api/v1/experiments/{id}/runs: the agent's report of one (case, arm, repetition),
// stored on the row its context created, in the experiments' own table (never `workflows`, so
// no class statistics, promotion, drift or shadow evaluation ever sees it). Idempotent: the same
// body again is a duplicate (200), another body for a reported assignment a conflict (409).
// Only the reported path's canonical signature is stored, not arguments or results.
import { createHash } from "node:crypto";
import type { z } from "zod";
import type { Db } from "../../db/prisma";
import type { ExperimentRun } from "../../db/generated/client";
import { Conflict, InvalidState } from "../../errors";
import { canonicalIdentity, pythonJson } from "../../learning/capture/canonical";
import { requireOpen, resolveAssignment } from "../assignment";
import { loadExperiment } from "../experiments";
import { runFigures } from "../scoring";
import { scoredCase, scoredRun } from "../report";
import type { reportRunBody } from "../schemas";

export type ReportExperimentRunInput = z.output<typeof reportRunBody> & { experimentId: string };

export async function reportExperimentRun(db: Db, input: ReportExperimentRunInput) {
  const { experimentId, ...body } = input;
  const reportHash = createHash("sha256").update(pythonJson(body), "utf8").digest("hex");
  const identity = canonicalIdentity(body.steps);
  return db.$transaction(async (tx) => {
    // Shared: reports run side by side; completion and cancellation (FOR UPDATE) wait for them.
    await tx.$queryRaw`SELECT 1 FROM experiments WHERE id = ${experimentId} FOR SHARE`;
    const e = await loadExperiment(tx, experimentId);
    const { kase, arm } = await resolveAssignment(tx, e, { caseId: body.case_id, arm: body.arm, repetition: body.repetition });
    const key = { experimentId, caseId: kase.caseId, arm: arm.name, repetition: body.repetition };
    const [existing] = await tx.$queryRaw<{ report_hash: string | null }[]>`
      SELECT report_hash FROM experiment_runs
      WHERE experiment_id = ${experimentId} AND case_id = ${key.caseId} AND arm = ${key.arm} AND repetition = ${key.repetition} FOR UPDATE`;
    if (existing?.report_hash) {
      if (existing.report_hash !== reportHash) {
        throw new Conflict(`Case '${key.caseId}', arm '${key.arm}', repetition ${key.repetition} was already reported with a different body.`);
      }
      const run = await tx.experimentRun.findUniqueOrThrow({ where: { experimentId_caseId_arm_repetition: key } });
      return { duplicate: true, run: runView(run, kase) };
    }
    requireOpen(e);
    if (!existing) {
      throw new InvalidState(`No context was served for case '${key.caseId}', arm '${key.arm}', repetition ${key.repetition}: ask POST /api/v1/experiments/${experimentId}/context first.`);
    }
    const run = await tx.experimentRun.update({
      where: { experimentId_caseId_arm_repetition: key },
      data: {
        reportedAt: new Date(),
        reportHash,
        steps: identity.signature,
        stepsHash: identity.hash,
        answer: body.answer,
        promptTokens: body.prompt_tokens,
        completionTokens: body.completion_tokens,
        llmCalls: body.llm_calls,
        inferenceMs: body.inference_ms,
        endToEndMs: body.end_to_end_ms,
      },
    });
    return { duplicate: false, run: runView(run, kase) };
  });
}

function runView(r: ExperimentRun, kase: Parameters<typeof scoredCase>[0]) {
  const f = runFigures(scoredCase(kase), scoredRun(r));
  return {
    experiment_id: r.experimentId,
    case_id: r.caseId,
    arm: r.arm,
    repetition: r.repetition,
    steps_hash: r.stepsHash,
    workflow_correct: f.workflow_accuracy === null ? null : f.workflow_accuracy === 1,
    answer_correct: f.answer_accuracy === null ? null : f.answer_accuracy === 1,
    raw_workflow_count: r.rawWorkflowCount,
    developer_message: r.developerMessage,
    skill_sha256: r.skillSha256,
    reported_at: r.reportedAt!.toISOString(),
  };
}
