// Console: the users list the settings page reads (and re-reads after each change). Changes
// are server actions (lib/actions/users.ts).
import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { listUsers } from "@/lib/auth/users";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "session", access: "users:read" }, async () => ({ users: await listUsers(db()) }));
