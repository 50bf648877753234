// Exactly one arm's context: the baseline's n successful raw workflows of
// the skill's class and no skill; the skill alone at user authority; the same skill alone as a
// developer message (after the experiment's provider mapping); or nothing. Proctor builds it,
// so the facts the seed's checks read (raw workflow count, developer message, the skill body's
// sha256) are facts of what was served, not the agent's word.
import { createHash } from "node:crypto";
import type { Db, Tx } from "../db/prisma";
import type { Experiment, Skill, WorkflowRun } from "../db/generated/client";
import { assembleContext, type AssembledContext, type ContextMemory, type RenderedSkill } from "../learning/inject/context";
import type { Provider } from "../learning/inject/provider-roles";
import type { Arm } from "./scoring";

/** The marker assembleContext wraps developer-authority skills in, wherever the provider put them. */
const DEVELOPER_SKILLS_MARKER = "<proctor:approved-skills>";

export type ArmContext = {
  assembled: AssembledContext;
  rawWorkflowIds: string[];
  developerMessage: boolean;
  skillSha256: string | null;
};

type RawRun = Pick<WorkflowRun, "id" | "workflowId" | "canonicalHash" | "query" | "steps" | "answer">;

/** The n newest successful runs of the skill's class (its user scope), private fields intact. */
export function rawWorkflows(db: Db | Tx, skill: Pick<Skill, "agentId" | "userScope" | "sourceCanonicalHash">, n: number): Promise<RawRun[]> {
  return db.workflowRun.findMany({
    where: {
      agentId: skill.agentId,
      userScope: skill.userScope,
      canonicalHash: skill.sourceCanonicalHash,
      outcome: "SUCCESS",
      forgottenAt: null,
      expiredAt: null,
    },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: n,
    select: { id: true, workflowId: true, canonicalHash: true, query: true, steps: true, answer: true },
  });
}

/** One raw workflow as a memory line: the request, each call with its arguments, the answer. */
export function workflowMemory(run: RawRun): ContextMemory {
  const calls = (Array.isArray(run.steps) ? run.steps : []).map((s) => {
    const step = s as { tool?: unknown; arguments?: unknown };
    return `${String(step.tool)}(${JSON.stringify(step.arguments ?? {})})`;
  });
  return {
    id: run.id,
    source: "workflow",
    workflow_id: run.workflowId,
    canonical_hash: run.canonicalHash ?? undefined,
    text: `Past successful run. Request: ${run.query} | Tool calls: ${calls.join(" -> ")} | Answer: ${run.answer ?? ""}`,
  };
}

export const skillSha256 = (content: string) => createHash("sha256").update(content, "utf8").digest("hex");

export async function armContext(
  db: Db | Tx,
  experiment: Pick<Experiment, "provider" | "systemPrompt">,
  skill: Skill,
  arm: Arm,
  request: string,
): Promise<ArmContext> {
  const runs = arm.mode === "raw_workflows" ? await rawWorkflows(db, skill, arm.n ?? 0) : [];
  const skills: RenderedSkill[] =
    arm.mode === "skill_user" || arm.mode === "skill_developer"
      ? [
          {
            skillId: skill.id,
            name: skill.name,
            version: skill.version,
            injectionRole: arm.mode === "skill_user" ? "user" : "developer",
            similarity: 1,
            content: skill.content,
            sourceCanonicalHash: skill.sourceCanonicalHash,
            sourceWorkflowIds: skill.sourceWorkflowIds,
          },
        ]
      : [];
  const assembled = assembleContext({
    query: request,
    systemPrompt: experiment.systemPrompt,
    provider: experiment.provider as Provider,
    history: [],
    memories: runs.map(workflowMemory),
    skills,
  });
  // Authority slots only (never the user's turn, which quotes the request).
  const served = [assembled.system ?? "", assembled.systemInstruction ?? "", ...assembled.messages.filter((m) => m.role === "developer" || m.role === "system").map((m) => m.content)];
  return {
    assembled,
    rawWorkflowIds: assembled.keptMemoryIds,
    developerMessage: served.some((text) => text.includes(DEVELOPER_SKILLS_MARKER)),
    skillSha256: skills.length ? skillSha256(skill.content) : null,
  };
}
