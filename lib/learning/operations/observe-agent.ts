// An agent as runs from OpenTelemetry show it (lib/otlp, PROCTOR_OTLP_AUTO_AGENTS): declared on
// first sight with the learning defaults (audited as agent.created by the ingest key whose export
// brought the trace), and tools its runs used that its toolbox lacks added to it
// (agent.tools_observed), up to MAX_AUTO_TOOLS_PER_AGENT tools in all. Only toolboxes of agents
// the ingestion declared itself grow (unless `grow` says "all"): what an admin declared changes
// only by an admin, and a tool is only ever added, never changed. An agent whose deletion started
// (or finished: agent_tombstones) is never declared again here.
import type { Db } from "../../db/prisma";
import { Prisma } from "../../db/generated/client";
import { recordAudit, type AuditContext } from "../../audit/record";
import { toolboxOf } from "../skills/promotion";
import { agentPutBody, toolSchema } from "../capture/schemas";
import type { z } from "zod";

export type ObserveAgentInput = {
  agentId: string;
  name: string;
  tools: z.input<typeof toolSchema>[];
  /** Whose toolboxes grow: the agents declared by observation ("own"), every agent, or none. */
  grow: "own" | "all" | "off";
  /** The toolbox size past which nothing is added. */
  maxTools: number;
};

type AgentRow = { tools: unknown; auto_declared: boolean; deleting: boolean };

/** Returns what changed: "created", "grown", null (nothing; no transaction taken) or "deleted" (deleted: nothing done). */
export async function observeAgent(db: Db, input: ObserveAgentInput, by: AuditContext): Promise<"created" | "grown" | "deleted" | null> {
  const tools = input.tools.flatMap((t) => {
    const r = toolSchema.safeParse(t);
    return r.success ? [r.data] : [];
  });
  const [seen] = await db.$queryRaw<AgentRow[]>`SELECT tools, auto_declared, deleting_at IS NOT NULL AS deleting FROM agents WHERE id = ${input.agentId}`;
  if (seen?.deleting) return "deleted";
  if (seen && (toGrow(seen, tools, input).length === 0)) return null;
  return db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<AgentRow[]>`SELECT tools, auto_declared, deleting_at IS NOT NULL AS deleting FROM agents WHERE id = ${input.agentId} FOR UPDATE`;
    if (row?.deleting) return "deleted";
    if (!row) {
      const [gone] = await tx.$queryRaw<unknown[]>`SELECT 1 FROM agent_tombstones WHERE agent_id = ${input.agentId}`;
      if (gone) return "deleted";
      const body = agentPutBody.parse({ name: input.name, tools: tools.slice(0, input.maxTools) });
      const created = await tx.agent.createMany({
        data: [{ id: input.agentId, name: body.name, tools: body.tools as Prisma.InputJsonValue, learning: body.learning as Prisma.InputJsonValue, outcomeRule: Prisma.DbNull, autoDeclared: true }],
        skipDuplicates: true,
      });
      // Declared meanwhile by another request: grow that one next time.
      if (created.count === 0) return null;
      await recordAudit(tx, by, {
        type: "agent.created",
        target: { type: "agent", id: input.agentId },
        data: { name: body.name, tools: body.tools.map((t) => t.name), learning: body.learning, outcome_rule: null },
      });
      return "created";
    }
    const added = toGrow(row, tools, input);
    if (added.length === 0) return null;
    const current = Array.isArray(row.tools) ? row.tools : [];
    await tx.agent.update({ where: { id: input.agentId }, data: { tools: [...current, ...added] as Prisma.InputJsonValue } });
    await recordAudit(tx, by, { type: "agent.tools_observed", target: { type: "agent", id: input.agentId }, data: { tools: added.map((t) => t.name), source: "otlp" } });
    return "grown";
  });
}

/** The tools to add to a declared agent's toolbox: none unless it may grow, and none past the cap. */
function toGrow<T extends { name: string }>(row: AgentRow, tools: T[], input: ObserveAgentInput): T[] {
  if (input.grow === "off" || (input.grow === "own" && !row.auto_declared)) return [];
  const have = toolboxOf(row.tools);
  const room = input.maxTools - have.size;
  return room > 0 ? tools.filter((t) => !have.has(t.name)).slice(0, room) : [];
}
