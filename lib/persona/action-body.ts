// The body of POST /persona-evolution/action as zod schemas, with the reference's messages and
// in its order. The operator identity never comes from the body: any key outside the allowed
// set (a spoofed actor_id, say) is refused before anything else is looked at. Each action's
// schema lists its fields in the order the reference checks them (revision, proposal, flag,
// account), and the first failing field's message is the answer.
import { z } from "zod";
import { textProblem } from "../db/storable-text";

export const ACTION_BODY_LIMIT = 4096;

export const ACTION_MESSAGES = {
  invalid: "Invalid persona action",
  revision: "A non-negative integer revision is required",
  proposal: "A valid proposal ID is required",
  flag: "A boolean setting is required",
  account: "A valid account ID is required",
  unknown: "Unknown persona action",
  reason: "A reason is text of at most 500 characters",
} as const;

export const REASON_MAX = 500;

/** A non-blank account id of at most 128 characters that the database can store. */
export const accountId = z
  .string({ error: ACTION_MESSAGES.account })
  .max(128, { error: ACTION_MESSAGES.account })
  .refine((v) => v.trim() !== "" && textProblem(v) === null, { error: ACTION_MESSAGES.account });

const revision = z.int({ error: ACTION_MESSAGES.revision }).min(0, { error: ACTION_MESSAGES.revision });
const proposalId = z
  .string({ error: ACTION_MESSAGES.proposal })
  .max(240, { error: ACTION_MESSAGES.proposal })
  .refine((v) => v.trim() !== "", { error: ACTION_MESSAGES.proposal });
const flag = z.boolean({ error: ACTION_MESSAGES.flag });
/** The admin's optional reason for approve, dismiss or undo (a Proctor addition: absent is fine). */
const reason = z
  .string({ error: ACTION_MESSAGES.reason })
  .max(REASON_MAX, { error: ACTION_MESSAGES.reason })
  .refine((v) => textProblem(v) === null, { error: ACTION_MESSAGES.reason })
  .transform((v) => v.trim() || undefined)
  .optional();

/** Only these keys, and an action name that is a string. */
const envelope = z.strictObject(
  {
    action: z.string(),
    user_id: z.unknown().optional(),
    revision: z.unknown().optional(),
    proposal_id: z.unknown().optional(),
    paused: z.unknown().optional(),
    daily_enabled: z.unknown().optional(),
    reason: z.unknown().optional(),
  },
  { error: ACTION_MESSAGES.invalid },
);

const decision = <A extends "approve" | "dismiss">(action: A) =>
  z
    .object({ revision, proposal_id: proposalId, user_id: accountId, reason })
    .transform((b) => ({ action, userId: b.user_id, revision: b.revision, proposalId: b.proposal_id, reason: b.reason }));

const ACTIONS = {
  reflect: z.object({ user_id: accountId }).transform((b) => ({ action: "reflect" as const, userId: b.user_id })),
  approve: decision("approve"),
  dismiss: decision("dismiss"),
  pause: z
    .object({ revision, paused: flag, user_id: accountId })
    .transform((b) => ({ action: "pause" as const, userId: b.user_id, revision: b.revision, paused: b.paused })),
  schedule: z
    .object({ revision, daily_enabled: flag, user_id: accountId })
    .transform((b) => ({ action: "schedule" as const, userId: b.user_id, revision: b.revision, dailyEnabled: b.daily_enabled })),
  undo: z
    .object({ revision, user_id: accountId, reason })
    .transform((b) => ({ action: "undo" as const, userId: b.user_id, revision: b.revision, reason: b.reason })),
};

export type ActionName = keyof typeof ACTIONS;
export type PersonaAction = z.output<(typeof ACTIONS)[ActionName]>;

/** An unknown action name is refused only once the account id is valid, as the reference does. */
const unknownAction = z.object({ user_id: accountId }).refine(() => false, { error: ACTION_MESSAGES.unknown });

export type ParsedAction = { ok: true; value: PersonaAction } | { ok: false; message: string };

export function parseActionBody(data: unknown): ParsedAction {
  const body = envelope.safeParse(data);
  if (!body.success) return { ok: false, message: ACTION_MESSAGES.invalid };
  const name = body.data.action;
  const schema = Object.hasOwn(ACTIONS, name) ? ACTIONS[name as ActionName] : unknownAction;
  const parsed = schema.safeParse(body.data);
  return parsed.success ? { ok: true, value: parsed.data as PersonaAction } : { ok: false, message: parsed.error.issues[0].message };
}

/** The same rules as a zod schema, for the console's server action. */
export const personaActionBody = z.unknown().transform((data, ctx): PersonaAction => {
  const parsed = parseActionBody(data);
  if (parsed.ok) return parsed.value;
  ctx.addIssue({ code: "custom", message: parsed.message });
  return z.NEVER;
});

/** The console asks why before a dismiss or an undo (the published route leaves the reason optional). */
export const REASON_REQUIRED: ReadonlySet<ActionName> = new Set(["dismiss", "undo"]);
export const REASON_REQUIRED_MESSAGE = "Say why: a reason is required to dismiss a suggestion or undo a change.";

/** The account id, or null when it is not one (the pages show ACTION_MESSAGES.account). */
export function validAccountId(value: unknown): string | null {
  const r = accountId.safeParse(value);
  return r.success ? r.data : null;
}
