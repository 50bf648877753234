// POST /persona-evolution/action: one audited persona action by a signed-in admin, answered
// with the latest canonical state (the route's published contract). Only enabled with
// PROCTOR_PERSONA_ACTIONS=1 (then also in read-only mode: the access table says so). The body is
// read here by the shared reader: one over the limit is a 413 as on every route, a malformed one
// the reference's 400. The console's buttons call the same operations.
import { route, json } from "@/lib/api/handler";
import { readJsonBody } from "@/lib/api/json-body";
import { ProblemError } from "@/lib/api/problem";
import { db } from "@/lib/db/client";
import { Validation } from "@/lib/errors";
import { ACTION_BODY_LIMIT, ACTION_MESSAGES, parseActionBody } from "@/lib/persona/action-body";
import { runPersonaAction } from "@/lib/persona/operations";

export const dynamic = "force-dynamic";

export const POST = route({ auth: "session", access: "persona:decide" }, async ({ req, audit }) => {
  const raw = await readJsonBody(req, ACTION_BODY_LIMIT).catch((e: unknown) => {
    if (e instanceof ProblemError && e.code === "payload_too_large") throw e;
    throw new Validation(ACTION_MESSAGES.invalid);
  });
  const parsed = parseActionBody(raw);
  if (!parsed.ok) throw new Validation(parsed.message);
  return json(await runPersonaAction(db(), parsed.value, audit));
});
