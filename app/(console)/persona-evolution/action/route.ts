// POST /persona-evolution/action: one audited persona action by a signed-in admin, answered
// with the latest canonical state (seed 003's published contract). Only enabled with
// PROCTOR_PERSONA_ACTIONS=1 (then also in read-only mode: the access table says so); the body is read here so that
// oversized or malformed ones are a 400. The console's buttons call the same operations.
import { route, json } from "@/lib/api/handler";
import { readJsonBody } from "@/lib/api/json-body";
import { db } from "@/lib/db/client";
import { Validation } from "@/lib/errors";
import { ACTION_BODY_LIMIT, ACTION_MESSAGES, parseActionBody } from "@/lib/persona/action-body";
import { runPersonaAction } from "@/lib/persona/operations";

export const dynamic = "force-dynamic";

export const POST = route({ auth: "session", access: "persona:decide" }, async ({ req, audit }) => {
  const raw = await readJsonBody(req, ACTION_BODY_LIMIT).catch(() => {
    throw new Validation(ACTION_MESSAGES.invalid);
  });
  const parsed = parseActionBody(raw);
  if (!parsed.ok) throw new Validation(parsed.message);
  return json(await runPersonaAction(db(), parsed.value, audit));
});
