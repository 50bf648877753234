// The console user behind a request, re-read from the database so that deactivation and
// role changes take effect at once rather than when the 8-hour JWT expires.
import { getServerSession } from "next-auth";
import { db } from "../db/client";
import type { Actor } from "./actor";
import { authOptions } from "./options";

export async function sessionActor(): Promise<Extract<Actor, { type: "user" }> | null> {
  const session = await getServerSession(authOptions);
  const id = (session?.user as { id?: string } | undefined)?.id;
  if (!id) return null;
  const user = await db().user.findUnique({ where: { id } });
  if (!user || !user.active) return null;
  return { type: "user", id: user.id, label: user.email, role: user.role };
}
