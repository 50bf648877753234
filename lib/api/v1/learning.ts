// zod schemas of the learning engine's API that exist only on the wire (api.md: promotion,
// skills, context assembly): path parameters, query strings, and the optional bodies.
import { z } from "zod";
import { pathId } from "../../ids";
import { readJsonBody } from "../json-body";
import { zodProblem } from "../zod-errors";

const ONE_MIB = 1024 * 1024;

export const agentIdParams = z.object({ agent_id: pathId });
export const skillParams = z.object({ skill_id: pathId });
export const classParams = z.object({ agent_id: pathId, canonical_hash: pathId });

export const skillStatus = z.enum(["candidate", "shadow", "active", "deprecated", "demoted"]);

export const skillListQuery = z.object({
  status: skillStatus.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const reportListQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) });

/** "Distill now": every user scope of the hash, or only the one named (`user_id=` empty: runs without a user). */
export const distillQuery = z.object({ user_id: z.string().max(256).optional() });

export { activateBody, demoteBody } from "../../learning/schemas";

/** A JSON body that may be absent: an empty POST means `{}`. */
export async function optionalBody<S extends z.ZodType>(req: Request, schema: S): Promise<z.output<S>> {
  const empty = req.headers.get("content-length") === "0" || !req.body;
  const value = empty ? {} : await readJsonBody(req, ONE_MIB).catch((e) => {
    if ((e as { detail?: string }).detail?.startsWith("The request body is empty")) return {};
    throw e;
  });
  const r = schema.safeParse(value);
  if (!r.success) throw zodProblem("request body", r.error);
  return r.data;
}
