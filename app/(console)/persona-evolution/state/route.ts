// GET /persona-evolution/state?user_id=…: the audited canonical state as JSON (the page's
// data with real status codes: 400 bad id, 403 viewer, 404 no profile, 503 audit unavailable).
import { z } from "zod";
import { route, json } from "@/lib/api/handler";
import { problems } from "@/lib/api/problem";
import { db } from "@/lib/db/client";
import { ACTION_MESSAGES, validAccountId } from "@/lib/persona/action-body";
import { auditedPersonaView, defaultPersonaAdapter } from "@/lib/persona/host";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "session", role: "ADMIN", query: z.object({ user_id: z.string().optional() }) }, async ({ query, audit }) => {
  const userId = validAccountId(query.user_id);
  if (userId === null) throw problems.validation(ACTION_MESSAGES.account);
  const database = db();
  const result = await auditedPersonaView(database, defaultPersonaAdapter(database), audit, userId);
  if ("error" in result) throw problems.unavailable(result.error);
  if (!result.state) throw problems.notFound("A persona or conversation for this account");
  return json(result.state);
});
