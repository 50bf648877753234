// Console: change a user's role or deactivate / reactivate them.
import { z } from "zod";
import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { updateUser, updateUserSchema } from "@/lib/auth/users";

export const dynamic = "force-dynamic";

const params = z.object({ id: z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/) });

export const PATCH = route({ auth: "session", role: "ADMIN", params, body: updateUserSchema }, async ({ params, body, audit, actor }) => ({
  user: await updateUser(db(), audit, actor?.id ?? null, params.id, body),
}));
