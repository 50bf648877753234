// An agent as runs from OpenTelemetry show it (lib/otlp, PROCTOR_OTLP_AUTO_AGENTS): declared on
// first sight with the learning defaults (audited as agent.created, no actor: the ingestion),
// and tools its runs used that its toolbox lacks added to it (agent.tools_observed). A tool is
// only ever added, never changed: what an admin declared stays as declared.
import type { Db } from "../../db/prisma";
import { Prisma } from "../../db/generated/client";
import { recordAudit, type AuditContext } from "../../audit/record";
import { toolboxOf } from "../skills/promotion";
import { agentPutBody, toolSchema } from "../capture/schemas";
import type { z } from "zod";

export type ObserveAgentInput = { agentId: string; name: string; tools: z.input<typeof toolSchema>[] };

/** Returns what changed: "created", "grown" or null (nothing new; no transaction taken). */
export async function observeAgent(db: Db, input: ObserveAgentInput, by: AuditContext): Promise<"created" | "grown" | null> {
  const tools = input.tools.flatMap((t) => {
    const r = toolSchema.safeParse(t);
    return r.success ? [r.data] : [];
  });
  const seen = await db.agent.findUnique({ where: { id: input.agentId }, select: { tools: true } });
  if (seen && tools.every((t) => toolboxOf(seen.tools).has(t.name))) return null;
  return db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ tools: unknown }[]>`SELECT tools FROM agents WHERE id = ${input.agentId} FOR UPDATE`;
    if (!row) {
      const body = agentPutBody.parse({ name: input.name, tools });
      const created = await tx.agent.createMany({
        data: [{ id: input.agentId, name: body.name, tools: body.tools as Prisma.InputJsonValue, learning: body.learning as Prisma.InputJsonValue, outcomeRule: Prisma.DbNull }],
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
    const have = toolboxOf(row.tools);
    const added = tools.filter((t) => !have.has(t.name));
    if (added.length === 0) return null;
    const current = Array.isArray(row.tools) ? row.tools : [];
    await tx.agent.update({ where: { id: input.agentId }, data: { tools: [...current, ...added] as Prisma.InputJsonValue } });
    await recordAudit(tx, by, { type: "agent.tools_observed", target: { type: "agent", id: input.agentId }, data: { tools: added.map((t) => t.name), source: "otlp" } });
    return "grown";
  });
}
