// Reflect now (an operator) or a due daily check (the worker): read the account's new
// messages and, if the goals should change, leave one proposal awaiting approval. The audit
// row and the review claim commit together; the model runs outside any transaction and its
// result is recorded in a second one (lib/persona/pg-adapter.ts).
import type { Db } from "../../db/prisma";
import type { AuditContext } from "../../audit/record";
import type { PersonaState, ReflectTrigger } from "../types";
import { actorId, audited } from "./audited";

export type ReflectPersonaInput = { userId: string; trigger: ReflectTrigger };

export function reflectPersona(database: Db, input: ReflectPersonaInput, by: AuditContext): Promise<PersonaState> {
  const event = { type: "persona_reflection.requested", data: { trigger: input.trigger } } as const;
  return audited(database, by, { userId: input.userId, event }, (adapter, gate) =>
    adapter.reflect(input.userId, { actorId: actorId(by), trigger: input.trigger, gate }),
  );
}
