// The persona page's view model (lib/persona/monitor.ts): the activity timeline's order, the
// summary strip's figures, tolerance of malformed profiles, and when Undo is offered.
import { describe, expect, it } from "vitest";
import { buildPersonaView, canUndo } from "@/lib/persona/monitor";

const entry = (version: number, timestamp: string | undefined, action = "applied") => ({
  version,
  timestamp,
  action,
  actor_id: "operator:a@x",
  review_id: `r${version}`,
  change_trigger: { reason: `reason ${version}` },
  changes: { goals: { old: "a", new: "b" } },
  evidence: [{ id: "m", thread_id: "t", agent_id: "ag", timestamp: "2026-01-01T00:00:00Z", text: "x" }],
});
const review = (status: string, timestamp: string | undefined) => ({ status, timestamp, reason: status, evidence_count: 3, selected_count: 1, trigger: "manual" });

describe("persona monitor view", () => {
  it("puts the pending suggestion first, then newest first, ties keeping the later list entry first", () => {
    const view = buildPersonaView({
      pending: { id: "p1", reason: "suggested", changes: { goals: { old: "", new: "x" } }, evidence: [{}, {}] },
      persona: {
        version: 3,
        evolution_history: [entry(2, "2026-01-02T00:00:00Z"), entry(3, "2026-01-04T00:00:00Z", "undo")],
      },
      reviews: [review("approved", "2026-01-02T00:00:00Z"), review("failed", "2026-01-03T00:00:00Z"), review("no_change", "2026-01-03T00:00:00Z")],
    });
    expect(view.rows.map((r) => r.key)).toEqual(["pending", "change-1", "review-2", "review-1", "change-0", "review-0"]);
    expect(view.rows[0]).toMatchObject({ kind: "proposal", kindLabel: "Suggested change", statusLabel: "Awaiting approval", evidenceCount: 2, reference: "p1" });
    expect(view.rows[1]).toMatchObject({ kind: "undo", statusLabel: "Reverted", version: 3 });
    expect(view.rows.find((r) => r.key === "review-1")).toMatchObject({ statusLabel: "Failed", tags: ["review", "failed"] });
  });

  it("sorts rows without timestamps last, later list entries first", () => {
    const view = buildPersonaView({ reviews: [review("proposed", undefined), review("no_change", undefined), review("failed", "2026-01-01T00:00:00Z")] });
    expect(view.rows.map((r) => r.key)).toEqual(["review-2", "review-1", "review-0"]);
  });

  it("computes the tape: status precedence, counts and chips", () => {
    const base = { persona: { evolution_history: [entry(2, "2026-01-02T00:00:00Z"), entry(3, "2026-01-03T00:00:00Z", "undo")] }, reviews: [review("failed", "2026-01-01T00:00:00Z"), review("approved", "2026-01-02T00:00:00Z")] };
    expect(buildPersonaView({ ...base, paused: true, pending: { id: "p" } }).status).toBe("Paused");
    expect(buildPersonaView({ ...base, pending: { id: "p" } }).status).toBe("Awaiting decision");
    expect(buildPersonaView({ ...base, review_state: "failed" }).status).toBe("Last reflection failed");
    expect(buildPersonaView({ ...base, review_state: "reviewing" }).status).toBe("Reviewing");
    const ready = buildPersonaView({ ...base, review_state: "approved" });
    expect(ready).toMatchObject({ status: "Ready", changes: 1, undos: 1, reviews: 2, failedReviews: 1, proposals: 1, pending: false, evidence: 0 });
    expect(ready.chips).toEqual([
      { tag: "change", label: "Changes", count: 2 },
      { tag: "review", label: "Reflections", count: 2 },
      { tag: "failed", label: "Failed", count: 1 },
    ]);
  });

  it("survives minimal or malformed profiles", () => {
    for (const profile of [null, undefined, 42, "x", [], {}, { persona: "nope", reviews: {}, pending: [] }, { persona: { evolution_history: [null, 3, "x"] }, reviews: [null, { status: 7, timestamp: "not a date" }] }]) {
      const view = buildPersonaView(profile);
      expect(Array.isArray(view.rows)).toBe(true);
      expect(view.status).toBeTypeOf("string");
    }
    const odd = buildPersonaView({ reviews: [{ status: "rate_limited", timestamp: "garbage" }] });
    expect(odd.rows[0]).toMatchObject({ statusLabel: "Rate limited", timestamp: null, tone: "gray" });
  });

  it("offers undo while an applied change is not yet undone, walking back one approved version per undo", () => {
    const change = (version: number, from: string, to: string, action = "applied") => ({ ...entry(version, undefined, action), changes: { goals: { old: from, new: to } } });
    const profile = (goals: string, ...history: ReturnType<typeof change>[]) => ({ persona: { goals, evolution_history: history } });
    expect(canUndo(profile(""))).toBe(false);
    expect(canUndo(profile("b", change(2, "a", "b")))).toBe(true);
    // v2 a→b, v3 b→c, undo v3 (v4 c→b): v2 is still undoable; undoing it too (v5 b→a) leaves nothing.
    expect(canUndo(profile("b", change(2, "a", "b"), change(3, "b", "c"), change(4, "c", "b", "undo")))).toBe(true);
    expect(canUndo(profile("a", change(2, "a", "b"), change(3, "b", "c"), change(4, "c", "b", "undo"), change(5, "b", "a", "undo")))).toBe(false);
    // A change approved after an undo is the next one reverted.
    expect(canUndo(profile("d", change(2, "a", "b"), change(3, "b", "c"), change(4, "c", "b", "undo"), change(5, "b", "d")))).toBe(true);
    // Goals that are not the change's result (a host's odd state): no button the undo operation would refuse.
    expect(canUndo(profile("x", change(2, "a", "b")))).toBe(false);
    expect(canUndo(null)).toBe(false);
    expect(canUndo({ persona: { evolution_history: [null, 3] } })).toBe(false);
  });
});
