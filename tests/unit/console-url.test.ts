// URL handling of the console: where sign-in may send people, and table links that keep
// page, sort and filters in the query string.
import { describe, expect, it } from "vitest";
import { safeNextPath } from "@/lib/auth/next-path";
import { hrefWith } from "@/components/ui/table";
import { pageParam } from "@/lib/console/url";

describe("safeNextPath", () => {
  it("keeps same-site paths with their query", () => {
    expect(safeNextPath("/workflows?agent=a&page=2")).toBe("/workflows?agent=a&page=2");
    expect(safeNextPath("/agents/x%20y")).toBe("/agents/x%20y");
  });

  it("refuses other origins, protocol-relative and backslash tricks, and loops", () => {
    for (const next of ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", "evil", "/login?next=/agents", "/api/auth/signout", "", null, undefined]) {
      expect(safeNextPath(next), String(next)).toBe("/agents");
    }
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
