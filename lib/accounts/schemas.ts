// The wire shapes of forgetting an account: the API's path, query and answer, and the
// console action's input (a reason is required there, optional over the API).
import { z } from "zod";
import { pathId } from "../path-id";

const reason = z.string().trim().min(1).max(2000);

export const accountParams = z.object({ user_id: pathId });
export const forgetQuery = z.object({ reason: reason.optional() });
export const forgetAccountAction = z.object({ user_id: pathId, reason });

const count = z.number().int().min(0);
export const forgetAccountResponse = z.strictObject({
  forgotten: z.literal(true),
  runs_forgotten: count,
  messages_deleted: count,
  persona_versions_deleted: count,
  proposals_deleted: count,
  reviews_deleted: count,
  skills_cleared: count,
});
