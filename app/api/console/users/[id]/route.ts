// Console: change a user's role or deactivate / reactivate them.
import { z } from "zod";
import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { updateUserSchema } from "@/lib/auth/users";
import { updateUser } from "@/lib/auth/operations";

export const dynamic = "force-dynamic";

const params = z.object({ id: z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/) });

export const PATCH = route({ auth: "session", role: "ADMIN", params, body: updateUserSchema }, async ({ params, body, audit }) => ({
  user: await updateUser(db(), { userId: params.id, ...body }, audit),
}));
