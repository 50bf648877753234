// URL handling of the console: where sign-in may send people, and table links that keep
// page, sort and filters in the query string.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { safeNextPath } from "@/lib/auth/next-path";
import { hrefWith } from "@/components/ui/table";
import { pageParam } from "@/lib/console/url";
import { agentParam, scopedAgent, switchAgentHref } from "@/lib/console/agent-scope";
import { threadHref } from "@/lib/console/links";

describe("safeNextPath", () => {
  it("keeps same-site paths with their query", () => {
    expect(safeNextPath("/workflows?agent=a&page=2")).toBe("/workflows?agent=a&page=2");
    expect(safeNextPath("/agents/x%20y")).toBe("/agents/x%20y");
  });

  it("refuses other origins, protocol-relative and backslash tricks, and loops", () => {
    for (const next of ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", "evil", "/login?next=/agents", "/api/auth/signout", "", null, undefined]) {
      expect(safeNextPath(next), String(next)).toBe("/");
    }
  });

  it("refuses paths that normalize to another host (dot segments, tabs, encodings)", () => {
    for (const next of ["/.//127.0.0.2:9/phish", "/..//evil.example/x", "/a/..//evil.example", "/./\\evil.example", "/\t/evil.example", "/\\/evil.example", "/.//\\evil.example"]) {
      expect(safeNextPath(next), next).toBe("/");
    }
    // Encoded slashes stay in the path: a browser does not read them as an authority.
    expect(safeNextPath("/%2F%2Fevil.example")).toBe("/%2F%2Fevil.example");
    expect(safeNextPath("/%5C%5Cevil.example")).toBe("/%5C%5Cevil.example");
  });

  // The pieces attackers combine: separators (most of all), dot segments, encodings, whitespace
  // the URL parser drops, schemes and hosts; most candidates start with a slash, as a path must.
  const piece = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom("/", "\\", ".", "..", "%2F", "%5C", "\t") },
    { weight: 2, arbitrary: fc.constantFrom("evil.example", "127.0.0.2:9", "agents", "x") },
    { weight: 1, arbitrary: fc.constantFrom("%2f", "%2E", "%09", "\n", "\r", " ", "@", ":", "?", "#", "http:", "https:", "javascript:", "%00", "\u3002", "\uff0f") },
  );
  const pieces = fc.array(piece, { maxLength: 10 }).map((p) => p.join(""));
  const candidate = fc.oneof(pieces.map((p) => "/" + p), pieces, fc.string(), fc.webUrl());
  const origins = ["http://app.test:3000", "https://console.example.org", "http://127.0.0.1:8080"];

  it("whatever it is given, hands back a path that stays on the site it is resolved against", () => {
    fc.assert(
      fc.property(candidate, (next) => {
        const out = safeNextPath(next);
        expect(out.startsWith("/")).toBe(true);
        for (const origin of origins) {
          const resolved = new URL(out, `${origin}/login?next=x`);
          expect(resolved.origin).toBe(origin);
          expect(resolved.pathname.startsWith("/login") || resolved.pathname.startsWith("/api/")).toBe(false);
        }
      }),
      { numRuns: 3000 },
    );
  }, 60_000);

  it("keeps ordinary console paths as they are", () => {
    const segment = fc.stringMatching(/^[a-z0-9_-]{1,12}$/).filter((s) => !s.startsWith("login") && s !== "api");
    const path = fc.tuple(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.option(fc.stringMatching(/^[a-z]{1,5}=[a-z0-9]{0,5}$/), { nil: undefined }));
    fc.assert(
      fc.property(path, ([segments, query]) => {
        const next = "/" + segments.join("/") + (query ? `?${query}` : "");
        expect(safeNextPath(next)).toBe(next);
      }),
    );
  });
});

describe("hrefWith", () => {
  it("applies changes to the current parameters and drops empty ones", () => {
    expect(hrefWith("/audit", { action: "user.", page: "3", empty: "" }, { page: 4 })).toBe("/audit?action=user.&page=4");
    expect(hrefWith("/audit", { action: "user.", page: "3" }, { page: null, dir: "asc" })).toBe("/audit?action=user.&dir=asc");
    expect(hrefWith("/workflows", {}, {})).toBe("/workflows");
    expect(hrefWith("/workflows", { user: "a&b" }, {})).toBe("/workflows?user=a%26b");
  });
});

describe("pageParam", () => {
  it("takes whole pages from 1 to 100,000 and reads anything else as page 1", () => {
    expect(pageParam({ page: "7" })).toBe(7);
    expect(pageParam({ page: ["3", "9"] })).toBe(3);
    for (const bad of ["0", "-2", "2.5", "1e300", "99999999999999999999", "100001", "x", "", undefined]) expect(pageParam({ page: bad }), String(bad)).toBe(1);
    expect(pageParam({ runs_page: "4" }, "runs_page")).toBe(4);
  });
});

describe("agent scope", () => {
  const q = (s: string) => new URLSearchParams(s);
  it("reads the agent from an agent's own pages, else from `agent` or its alias `agent_id`", () => {
    expect(scopedAgent("/agents/a%20b/settings", q("agent=other"))).toBe("a b");
    expect(scopedAgent("/traces", q("agent_id=x"))).toBe("x");
    expect(scopedAgent("/traces", q("agent=y&agent_id=x"))).toBe("y");
    expect(scopedAgent("/agents", q(""))).toBe("");
    expect(agentParam({ agent_id: " z " })).toBe("z");
  });

  it("switches to the same page of another agent, the runs list from a run, and drops the alias, paging and the open record", () => {
    expect(switchAgentHref("/agents/a/settings", q(""), "b c")).toBe("/agents/b%20c/settings");
    expect(switchAgentHref("/agents/a", q(""), "")).toBe("/agents");
    expect(switchAgentHref("/workflows/runs/r1", q(""), "b")).toBe("/workflows/runs?agent=b");
    expect(switchAgentHref("/traces", q("agent_id=a&q=refund&page=3&thread_id=t&user_id=u"), "b")).toBe("/traces?q=refund&user_id=u&agent=b");
    expect(switchAgentHref("/skills", q("agent=a&skill=s1&status=active"), "")).toBe("/skills?status=active");
  });

  it("links a thread with the console's agent parameter, or the persona reference's", () => {
    expect(threadHref({ agentId: "a", userId: "u", threadId: "t" })).toBe("/traces?agent=a&user_id=u&thread_id=t#trace-timeline");
    expect(threadHref({ agentId: "a", userId: "u", threadId: "t" }, "agent_id")).toBe("/traces?agent_id=a&user_id=u&thread_id=t#trace-timeline");
  });
});
