// Record ids for rows written with raw SQL, shaped like Prisma's cuid() ids ("c" + 24 of
// [0-9a-z]): a millisecond time prefix keeps them roughly ordered, 60 random bits (from
// randomUUID, which draws on a cached entropy pool: cheap in batches) keep them unique.
import { randomUUID } from "node:crypto";

export function newId(): string {
  const time = Date.now().toString(36).padStart(9, "0").slice(-9);
  return `c${time}${randomUUID().replace(/-/g, "").slice(-15)}`;
}
