import type { Tx } from "../../db/prisma";
import { NotFound } from "../../errors";

/** The endpoint's row, locked for this transaction, or NotFound. */
export async function lockEndpoint(tx: Tx, id: string): Promise<{ id: string; url: string }> {
  const [row] = await tx.$queryRaw<{ id: string; url: string }[]>`SELECT id, url FROM webhook_endpoints WHERE id = ${id} FOR UPDATE`;
  if (!row) throw new NotFound("The webhook endpoint");
  return row;
}
