// What a forget keeps of an account's learning evidence names it by its forget's keyed value
// (forgottenAs), never by its id: its kept runs' account and scope, its per-account classes and
// skills, the pooled classes' distinct-account rows, the activity summaries of /accounts and
// /traces, and its finished daily-review jobs. Counts, gates and skills stay as they were: each
// row is renamed, none dropped. The value is new for each forget, so no key collides with an
// earlier forget's rows.
import type { Tx } from "../db/prisma";
import { DAILY_REVIEW_JOB } from "../persona/daily-jobs";

export async function rekeyAccount(tx: Tx, userId: string, as: string): Promise<void> {
  // Runs: through their agents, so each statement walks an index led by agent_id.
  await tx.$executeRaw`UPDATE workflows w SET user_id = ${as} FROM agents a WHERE w.agent_id = a.id AND w.user_id = ${userId}`;
  await tx.$executeRaw`UPDATE workflows w SET user_scope = ${as} FROM agents a WHERE w.agent_id = a.id AND w.user_scope = ${userId}`;
  // Learning under learning_scope "user": the account's classes and skills are its scope.
  await tx.$executeRaw`UPDATE trajectory_classes SET user_scope = ${as} WHERE user_scope = ${userId}`;
  await tx.$executeRaw`UPDATE trajectory_class_queries SET user_scope = ${as} WHERE user_scope = ${userId}`;
  await tx.$executeRaw`UPDATE trajectory_class_days SET user_scope = ${as} WHERE user_scope = ${userId}`;
  await tx.$executeRaw`UPDATE trajectory_class_users SET user_scope = ${as} WHERE user_scope = ${userId}`;
  // Pooled classes: the account stays one distinct account, under the new name.
  await tx.$executeRaw`UPDATE trajectory_class_users SET user_id = ${as} WHERE user_id = ${userId}`;
  await tx.$executeRaw`UPDATE skills SET user_scope = ${as} WHERE user_scope = ${userId}`;
  await tx.$executeRaw`UPDATE skills SET user_id = ${as} WHERE user_id = ${userId}`;
  // The activity summaries follow the runs they count (their triggers watch inserts and deletes only).
  await tx.$executeRaw`UPDATE thread_summaries SET user_id = ${as} WHERE user_id = ${userId}`;
  await tx.$executeRaw`UPDATE account_agent_summaries SET user_id = ${as} WHERE user_id = ${userId}`;
  await tx.$executeRaw`UPDATE account_summaries SET user_id = ${as} WHERE user_id = ${userId}`;
  // Daily-review jobs stay until job retention (the pending ones were just cancelled, a running one finishes).
  await tx.$executeRaw`
    UPDATE jobs SET payload = jsonb_set(payload, '{user_id}', to_jsonb(${as}::text))
    WHERE kind = ${DAILY_REVIEW_JOB} AND payload->>'user_id' = ${userId}`;
}
