// Validation of POST /persona-evolution/action bodies, with the reference's messages and in
// its order. The operator identity never comes from the body: any key outside the allowed
// set (a spoofed actor_id, say) is refused before anything else is looked at.
import { textProblem } from "../api/json-body";

export const ACTION_BODY_LIMIT = 4096;

export const ACTION_MESSAGES = {
  invalid: "Invalid persona action",
  revision: "A non-negative integer revision is required",
  proposal: "A valid proposal ID is required",
  flag: "A boolean setting is required",
  account: "A valid account ID is required",
  unknown: "Unknown persona action",
} as const;

const ALLOWED_KEYS = new Set(["user_id", "action", "revision", "proposal_id", "paused", "daily_enabled"]);
const NEEDS_REVISION = new Set(["approve", "dismiss", "pause", "schedule", "undo"]);

export type PersonaAction =
  | { action: "reflect"; userId: string }
  | { action: "approve" | "dismiss"; userId: string; revision: number; proposalId: string }
  | { action: "pause"; userId: string; revision: number; paused: boolean }
  | { action: "schedule"; userId: string; revision: number; dailyEnabled: boolean }
  | { action: "undo"; userId: string; revision: number };

export type ParsedAction = { ok: true; value: PersonaAction } | { ok: false; message: string };

/** A non-blank account id of at most 128 characters that the database can store, or null. */
export function validAccountId(value: unknown): string | null {
  if (typeof value !== "string" || !value.trim() || value.length > 128 || textProblem(value)) return null;
  return value;
}

export function parseActionBody(data: unknown): ParsedAction {
  const fail = (message: string): ParsedAction => ({ ok: false, message });
  if (!data || typeof data !== "object" || Array.isArray(data)) return fail(ACTION_MESSAGES.invalid);
  const body = data as Record<string, unknown>;
  if (Object.keys(body).some((k) => !ALLOWED_KEYS.has(k))) return fail(ACTION_MESSAGES.invalid);
  const action = body.action;
  if (typeof action !== "string") return fail(ACTION_MESSAGES.invalid);
  const revision = body.revision;
  if (NEEDS_REVISION.has(action) && !(typeof revision === "number" && Number.isSafeInteger(revision) && revision >= 0)) {
    return fail(ACTION_MESSAGES.revision);
  }
  const proposalId = body.proposal_id;
  if ((action === "approve" || action === "dismiss") && !(typeof proposalId === "string" && proposalId.trim() && proposalId.length <= 240)) {
    return fail(ACTION_MESSAGES.proposal);
  }
  if ((action === "pause" && typeof body.paused !== "boolean") || (action === "schedule" && typeof body.daily_enabled !== "boolean")) {
    return fail(ACTION_MESSAGES.flag);
  }
  const userId = validAccountId(body.user_id);
  if (userId === null) return fail(ACTION_MESSAGES.account);
  const rev = revision as number;
  switch (action) {
    case "reflect":
      return { ok: true, value: { action, userId } };
    case "approve":
    case "dismiss":
      return { ok: true, value: { action, userId, revision: rev, proposalId: proposalId as string } };
    case "pause":
      return { ok: true, value: { action, userId, revision: rev, paused: body.paused as boolean } };
    case "schedule":
      return { ok: true, value: { action, userId, revision: rev, dailyEnabled: body.daily_enabled as boolean } };
    case "undo":
      return { ok: true, value: { action, userId, revision: rev } };
    default:
      return fail(ACTION_MESSAGES.unknown);
  }
}
