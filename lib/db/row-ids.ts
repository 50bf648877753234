// Record ids for rows written with raw SQL, shaped like Prisma's cuid() ids ("c" + 24 of
// [0-9a-z]): a millisecond time prefix keeps them roughly ordered, 60 random bits (from
// randomUUID, which draws on a cached entropy pool: cheap in batches) keep them unique.
import { randomUUID } from "node:crypto";

let lastMs = -1;
let lastTime = "";

export function newId(): string {
  // A batch's ids share their millisecond: its prefix is written once.
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastTime = ms.toString(36).padStart(9, "0").slice(-9);
  }
  // The last 15 hex digits of a UUID (xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx): 3 of its fourth group, all of its fifth.
  const uuid = randomUUID();
  return `c${lastTime}${uuid.slice(20, 23)}${uuid.slice(24)}`;
}
