// Console: list users and create one (a generated password is in this response only).
import { route, json } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { createUserSchema, listUsers } from "@/lib/auth/users";
import { createUser } from "@/lib/auth/operations";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "session", role: "ADMIN" }, async () => ({ users: await listUsers(db()) }));

export const POST = route({ auth: "session", role: "ADMIN", body: createUserSchema }, async ({ body, audit }) => {
  const { user, generatedPassword } = await createUser(db(), body, audit);
  return json({ user, generated_password: generatedPassword }, 201);
});
