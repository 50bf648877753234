// Create an experiment (agent API and console): the arms checked against each other, the
// skill against the agent, each case's expected path canonicalised as runs are (so exact
// workflow accuracy is a hash comparison), each case's counterbalanced arm order drawn from the
// bootstrap seed (../arm-order.ts), and the audit row, in one transaction.
import { randomBytes, randomInt } from "node:crypto";
import type { z } from "zod";
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { InvalidState, NotFound, Validation } from "../../errors";
import { canonicalIdentity } from "../../learning/capture/canonical";
import { assertAgentWritable } from "../../learning/agents/writable";
import { counterbalancedOrders } from "../arm-order";
import { experimentView, expectedRuns, type ExperimentView } from "../experiments";
import type { createExperimentBody } from "../schemas";
import type { Arm } from "../scoring";

export type CreateExperimentInput = { agentId: string } & z.output<typeof createExperimentBody>;

const DEFAULT_RAW_WORKFLOWS = 3;

/** Arms with n filled, and the baseline arm; Validation when they contradict each other. */
export function checkedArms(arms: CreateExperimentInput["arms"], baseline: string | undefined): { arms: Arm[]; baselineArm: string } {
  const names = arms.map((a) => a.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new Validation(`Arm '${dup}' is named twice.`, [{ path: "/arms", message: "arm names must be unique" }]);
  arms.forEach((a, i) => {
    if (a.mode !== "raw_workflows" && a.n !== undefined) throw new Validation(`Arm '${a.name}' is ${a.mode}: only raw_workflows arms take n.`, [{ path: `/arms/${i}/n`, message: "only raw_workflows arms take n" }]);
  });
  const baselineArm = baseline ?? arms.find((a) => a.mode === "raw_workflows")?.name;
  const base = arms.find((a) => a.name === baselineArm);
  if (!base || base.mode !== "raw_workflows") {
    throw new Validation(
      baseline === undefined ? "An experiment needs a raw_workflows arm as its baseline." : `The baseline arm '${baseline}' is not a raw_workflows arm of this experiment.`,
      [{ path: "/baseline_arm", message: "must name a raw_workflows arm" }],
    );
  }
  return { arms: arms.map((a) => (a.mode === "raw_workflows" ? { ...a, n: a.n ?? DEFAULT_RAW_WORKFLOWS } : a)), baselineArm: base.name };
}

export async function createExperiment(db: Db, input: CreateExperimentInput, audit: AuditContext): Promise<ExperimentView> {
  const { arms, baselineArm } = checkedArms(input.arms, input.baseline_arm);
  const seed = input.bootstrap_seed ?? randomInt(0, 2 ** 31 - 1);
  const orders = counterbalancedOrders(arms.map((a) => a.name), input.cases.length, seed);
  const cases = input.cases.map((c, i) => {
    const expected = c.expected_path?.map((s) => (typeof s === "string" ? { tool: s } : s));
    const identity = expected ? canonicalIdentity(expected) : null;
    return {
      caseId: c.case_id ?? `case-${i + 1}`,
      position: i,
      request: c.request,
      userId: c.user_id ?? null,
      expectedPath: identity ? identity.signature : undefined,
      expectedHash: identity?.hash ?? null,
      expectedAnswer: c.expected_answer ?? null,
      answerMatch: c.answer_match,
      armOrder: orders[i],
    };
  });
  const ids = cases.map((c) => c.caseId);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new Validation(`Case '${dup}' is named twice.`, [{ path: "/cases", message: "case ids must be unique" }]);
  const id = `exp_${randomBytes(9).toString("base64url")}`;

  return db.$transaction(async (tx) => {
    await assertAgentWritable(tx, input.agentId);
    const skill = await tx.skill.findUnique({ where: { id: input.skill_id }, select: { agentId: true, status: true, version: true } });
    if (!skill) throw new NotFound(`Skill '${input.skill_id}'`);
    if (skill.agentId !== input.agentId) {
      throw new Validation(`Skill '${input.skill_id}' belongs to another agent, not '${input.agentId}'.`, [{ path: "/skill_id", message: "must be a skill of this agent" }]);
    }
    if (skill.status !== "SHADOW" && skill.status !== "ACTIVE") {
      throw new InvalidState(`Experiments measure a shadow or active skill; this skill is ${skill.status.toLowerCase()}.`);
    }
    const row = await tx.experiment.create({
      data: {
        id,
        agentId: input.agentId,
        skillId: input.skill_id,
        skillVersion: skill.version,
        name: input.name,
        model: input.model,
        repetitions: input.repetitions,
        arms,
        baselineArm,
        provider: input.provider,
        systemPrompt: input.system_prompt,
        bootstrapSeed: seed,
        createdBy: audit.actor?.label ?? "system",
        cases: { create: cases },
      },
    });
    await recordAudit(tx, audit, {
      type: "experiment.created",
      target: { type: "experiment", id },
      data: {
        agent_id: input.agentId,
        skill_id: input.skill_id,
        skill_version: skill.version,
        name: input.name,
        model: input.model,
        repetitions: input.repetitions,
        arms,
        baseline_arm: baselineArm,
        cases: cases.length,
        bootstrap_seed: seed,
      },
    });
    return experimentView(row, { expected: expectedRuns(row, cases.length), reported: 0 });
  });
}
