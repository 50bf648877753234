// The body rules of POST /persona-evolution/action (lib/persona/action-body.ts): only the
// allowed keys, the reference's checking order and messages, and what each action needs.
import { describe, expect, it } from "vitest";
import { ACTION_MESSAGES, parseActionBody, validAccountId } from "@/lib/persona/action-body";

const base = { user_id: "account-1" };
const message = (body: unknown) => {
  const r = parseActionBody(body);
  return r.ok ? null : r.message;
};

describe("persona action body", () => {
  it.each([
    [{ action: "pause", revision: 2, paused: "false" }, ACTION_MESSAGES.flag],
    [{ action: "schedule", revision: 2, daily_enabled: 1 }, ACTION_MESSAGES.flag],
    [{ action: "pause", revision: true, paused: false }, ACTION_MESSAGES.revision],
    [{ action: "undo", revision: -1 }, ACTION_MESSAGES.revision],
    [{ action: "undo", revision: 1.5 }, ACTION_MESSAGES.revision],
    [{ action: "undo", revision: "3" }, ACTION_MESSAGES.revision],
    [{ action: "approve", revision: 2, proposal_id: null }, ACTION_MESSAGES.proposal],
    [{ action: "dismiss", revision: 2, proposal_id: "" }, ACTION_MESSAGES.proposal],
    [{ action: "dismiss", revision: 2, proposal_id: "   " }, ACTION_MESSAGES.proposal],
    [{ action: "approve", revision: 2, proposal_id: "p".repeat(241) }, ACTION_MESSAGES.proposal],
  ])("refuses invalid settings %j", (values, expected) => {
    expect(message({ ...base, ...values })).toBe(expected);
  });

  it.each([[[]], [{}], [null], [4], [true]])("refuses a non-string action %j", (action) => {
    expect(message({ ...base, action })).toBe(ACTION_MESSAGES.invalid);
  });

  it("refuses bodies that are not objects and any key outside the allowed set (a spoofed actor)", () => {
    expect(message([])).toBe(ACTION_MESSAGES.invalid);
    expect(message("reflect")).toBe(ACTION_MESSAGES.invalid);
    expect(message(null)).toBe(ACTION_MESSAGES.invalid);
    expect(message({ ...base, action: "reflect", actor_id: "operator:mallory" })).toBe(ACTION_MESSAGES.invalid);
  });

  it("checks in the reference's order: keys, action, revision, proposal, flag, account, then the action name", () => {
    expect(message({ action: "approve", extra: 1 })).toBe(ACTION_MESSAGES.invalid);
    expect(message({ action: "approve", user_id: "" })).toBe(ACTION_MESSAGES.revision);
    expect(message({ action: "approve", revision: 1, user_id: "" })).toBe(ACTION_MESSAGES.proposal);
    expect(message({ action: "pause", revision: 1, user_id: "" })).toBe(ACTION_MESSAGES.flag);
    expect(message({ action: "pause", revision: 1, paused: true, user_id: "" })).toBe(ACTION_MESSAGES.account);
    expect(message({ action: "explode", user_id: "" })).toBe(ACTION_MESSAGES.account);
    expect(message({ action: "explode", user_id: "a" })).toBe(ACTION_MESSAGES.unknown);
  });

  it("accepts each action with exactly what it needs", () => {
    expect(parseActionBody({ ...base, action: "reflect" })).toEqual({ ok: true, value: { action: "reflect", userId: "account-1" } });
    expect(parseActionBody({ ...base, action: "reflect", revision: 0, proposal_id: "" })).toEqual({ ok: true, value: { action: "reflect", userId: "account-1" } });
    expect(parseActionBody({ ...base, action: "approve", revision: 0, proposal_id: "p1" })).toEqual({
      ok: true,
      value: { action: "approve", userId: "account-1", revision: 0, proposalId: "p1" },
    });
    expect(parseActionBody({ ...base, action: "pause", revision: 3, paused: false })).toEqual({
      ok: true,
      value: { action: "pause", userId: "account-1", revision: 3, paused: false },
    });
    expect(parseActionBody({ ...base, action: "schedule", revision: 3, daily_enabled: true })).toEqual({
      ok: true,
      value: { action: "schedule", userId: "account-1", revision: 3, dailyEnabled: true },
    });
    expect(parseActionBody({ ...base, action: "undo", revision: 7 })).toEqual({ ok: true, value: { action: "undo", userId: "account-1", revision: 7 } });
  });

  it("validates account ids like the reference (non-blank, at most 128 characters) and refuses unstorable text", () => {
    expect(validAccountId("acct-42")).toBe("acct-42");
    expect(validAccountId("x".repeat(128))).toBe("x".repeat(128));
    expect(validAccountId("x".repeat(129))).toBeNull();
    expect(validAccountId("   ")).toBeNull();
    expect(validAccountId(42)).toBeNull();
    expect(validAccountId("a\u0000b")).toBeNull();
  });
});
