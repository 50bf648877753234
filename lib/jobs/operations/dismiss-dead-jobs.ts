// Dismiss dead jobs of any kind (an admin gives up on them, with a reason): they are deleted for
// good, so the inbox stops counting them; one audit row per job keeps what they were (kind,
// agent, attempts, error class: never the payload).
import type { Db } from "../../db/prisma";
import type { AuditContext } from "../../audit/record";
import { decideDeadJobs } from "../dead";
import { deleteDeadJobs } from "../queue";
import type { DeadJobSelection } from "../schemas";

export type DismissDeadJobsInput = { select: DeadJobSelection; reason: string };

export function dismissDeadJobs(db: Db, input: DismissDeadJobsInput, by: AuditContext) {
  return decideDeadJobs(db, input.select, by, { event: "job.dismissed", apply: deleteDeadJobs, reason: input.reason, status: "dismissed" as const });
}
