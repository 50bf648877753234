// Console: list users and create one (a generated password is in this response only).
import { route, json } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { createUser, createUserSchema, listUsers } from "@/lib/auth/users";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "session", role: "ADMIN" }, async () => ({ users: await listUsers(db()) }));

export const POST = route({ auth: "session", role: "ADMIN", body: createUserSchema }, async ({ body, audit }) => {
  const { user, generatedPassword } = await createUser(db(), audit, body);
  return json({ user, generated_password: generatedPassword }, 201);
});
