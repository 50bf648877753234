// A long thread opens at its latest events: the newest page, "show earlier" growing it, the
// focused run's trace kept in view, and the `events` parameter bounded.
import { describe, expect, it } from "vitest";
import { latestWindow, tracesFilters, tracesHref, TIMELINE_PAGE } from "@/lib/traces/pages/traces";
import type { TimelineEvent } from "@/lib/traces/timeline";

const events = Array.from({ length: 300 }, (_, i) => ({ kind: "message", id: `m${i}`, rootTraceId: i === 10 ? "trace-old" : null }) as unknown as TimelineEvent);

describe("latestWindow", () => {
  it("shows the newest page of a 300-event thread and counts the earlier ones", () => {
    const w = latestWindow(events, TIMELINE_PAGE, "");
    expect(w.events.map((e) => e.id)).toEqual(events.slice(250).map((e) => e.id));
    expect(w.earlier).toBe(250);
  });
  it("reaches back to a focused root trace older than the page", () => {
    const w = latestWindow(events, TIMELINE_PAGE, "trace-old");
    expect(w.events[0].id).toBe("m10");
    expect(w.earlier).toBe(10);
  });
  it("shows everything when the thread is short", () => {
    expect(latestWindow(events.slice(0, 20), TIMELINE_PAGE, "")).toMatchObject({ earlier: 0 });
  });
});

describe("the events parameter", () => {
  it("defaults to one page, grows by request, is bounded, and travels in the thread's address", () => {
    expect(tracesFilters({ thread_id: "t" }).shown).toBe(TIMELINE_PAGE);
    expect(tracesFilters({ thread_id: "t", events: "100" }).shown).toBe(100);
    expect(tracesFilters({ thread_id: "t", events: "99999999" }).shown).toBe(1500);
    expect(tracesFilters({ thread_id: "t", events: "-3" }).shown).toBe(TIMELINE_PAGE);
    expect(tracesHref(tracesFilters({ thread_id: "t" }), { events: 100 })).toBe("/traces?thread_id=t&events=100");
  });
});
