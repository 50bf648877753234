// POST /persona-evolution/action: one audited persona action by a signed-in admin, answered
// with the latest canonical state. Only enabled with PROCTOR_PERSONA_ACTIONS=1 (then also in
// read-only mode); the body is read here so that oversized or malformed ones are a 400.
import { route, json } from "@/lib/api/handler";
import { problems } from "@/lib/api/problem";
import { readJsonBody } from "@/lib/api/json-body";
import { db } from "@/lib/db/client";
import { ACTION_BODY_LIMIT, ACTION_MESSAGES, parseActionBody } from "@/lib/persona/action-body";
import { personaActionsEnabled } from "@/lib/persona/config";
import { defaultPersonaAdapter, operatorId, performPersonaAction, PERSONA_MESSAGES } from "@/lib/persona/host";

export const dynamic = "force-dynamic";

export const POST = route({ auth: "session", role: "ADMIN", allowInReadOnly: () => personaActionsEnabled() }, async ({ req, actor, audit }) => {
  if (!personaActionsEnabled()) throw problems.forbidden(PERSONA_MESSAGES.disabled);
  let raw: unknown;
  try {
    raw = await readJsonBody(req, ACTION_BODY_LIMIT);
  } catch {
    throw problems.validation(ACTION_MESSAGES.invalid);
  }
  const parsed = parseActionBody(raw);
  if (!parsed.ok) throw problems.validation(parsed.message);
  const database = db();
  const state = await performPersonaAction(database, defaultPersonaAdapter(database), audit, operatorId(actor!.label), parsed.value);
  return json(state);
});
