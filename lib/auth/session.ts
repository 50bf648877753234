// The console user behind a request, re-read from the database so that deactivation, role
// changes and ended sessions (./session-version.ts) take effect at once rather than when the
// 8-hour JWT expires. Pages, server actions and console routes all ask here.
import { getServerSession } from "next-auth";
import { db } from "../db/client";
import type { Actor } from "./actor";
import { authOptions } from "./options";
import { sessionIsCurrent } from "./session-version";

export async function sessionActor(): Promise<Extract<Actor, { type: "user" }> | null> {
  const session = await getServerSession(authOptions);
  const claims = session?.user as { id?: string; sessionVersion?: unknown } | undefined;
  if (!claims?.id) return null;
  const user = await db().user.findUnique({ where: { id: claims.id } });
  if (!user || !sessionIsCurrent(user, claims.sessionVersion)) return null;
  return { type: "user", id: user.id, label: user.email, role: user.role };
}
