// GET /persona-evolution/state?user_id=…: the audited canonical state as JSON (the page's
// data with real status codes: 400 bad id, 403 viewer, 404 no profile, 503 audit unavailable).
import { z } from "zod";
import { route, json } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { Validation } from "@/lib/errors";
import { ACTION_MESSAGES, validAccountId } from "@/lib/persona/action-body";
import { PersonaNotFound } from "@/lib/persona/errors";
import { viewPersonaProfile } from "@/lib/persona/operations";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "session", access: "persona:read", query: z.object({ user_id: z.string().optional() }) }, async ({ query, audit }) => {
  const userId = validAccountId(query.user_id);
  if (userId === null) throw new Validation(ACTION_MESSAGES.account);
  const state = await viewPersonaProfile(db(), { userId }, audit);
  if (!state) throw new PersonaNotFound();
  return json(state);
});
