// zod schemas of the learning engine's API that exist only on the wire (promotion, skills,
// context assembly; tags `learning` and `skills` in GET /api/v1/openapi.json): path parameters, query strings and decision bodies.
import { z } from "zod";

export { agentIdParams, skillParams, classParams, activateBody, demoteBody, rejectBody } from "../../learning/capture/schemas";

export const skillStatus = z.enum(["candidate", "shadow", "active", "deprecated", "demoted", "rejected"]);

export const skillListQuery = z.object({
  status: skillStatus.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const skillExportQuery = z.object({ status: skillStatus.default("active") });

export const reportListQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) });

/** "Distill now": every user scope of the hash, or only the one named (`user_id=` empty: runs without a user). */
export const distillQuery = z.object({ user_id: z.string().max(256).optional() });
