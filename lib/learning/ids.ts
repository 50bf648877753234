// Record ids for rows written with raw SQL, shaped like Prisma's cuid() ids ("c" + 24 of
// [0-9a-z]): a time prefix keeps them roughly ordered, 80 random bits keep them unique.
import { randomBytes } from "node:crypto";

export function newId(): string {
  const time = Date.now().toString(36).padStart(9, "0").slice(-9);
  const random = BigInt("0x" + randomBytes(10).toString("hex")).toString(36).padStart(15, "0").slice(-15);
  return `c${time}${random}`;
}
