// The persona reference an agent binds (a keyed hash of the persona id, never the id or goals)
// and the links from persona evidence into the traces page.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { personaRef } from "@/lib/persona/reference";
import { traceHref } from "@/lib/persona/links";

describe("persona reference", () => {
  it("is a keyed hash of the persona id: stable per key, different per key and per id, not a plain sha256", () => {
    const k1 = Buffer.from("k".repeat(32));
    const k2 = Buffer.from("j".repeat(32));
    const ref = personaRef(k1, "prs_1");
    expect(ref).toMatch(/^persona:[0-9a-f]{32}$/);
    expect(personaRef(k1, "prs_1")).toBe(ref);
    expect(personaRef(k2, "prs_1")).not.toBe(ref);
    expect(personaRef(k1, "prs_2")).not.toBe(ref);
    expect(ref).not.toBe(`persona:${createHash("sha256").update("prs_1").digest("hex").slice(0, 32)}`);
  });
});

describe("trace links", () => {
  it("use the reference's format and encode every value", () => {
    expect(traceHref({ agentId: "acme-chat-assistant", userId: "account-1", threadId: "thread-1" })).toBe(
      "/traces?agent_id=acme-chat-assistant&user_id=account-1&thread_id=thread-1#trace-timeline",
    );
    expect(traceHref({ agentId: "a", userId: "u 1&x", threadId: "persona-review:review-1", rootTraceId: "review-1" })).toBe(
      "/traces?agent_id=a&user_id=u+1%26x&thread_id=persona-review%3Areview-1&root_trace_id=review-1#trace-timeline",
    );
  });
});
