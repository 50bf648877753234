// The console's copy helpers: counts with their nouns, thousands separators, one date format.
import { describe, expect, it } from "vitest";
import { formatDateTime, formatNumber, pluralise } from "@/lib/text/format";

describe("pluralise", () => {
  it("writes one thing in the singular and every other count in the plural", () => {
    expect(pluralise(1, "message")).toBe("1 message");
    expect(pluralise(0, "message")).toBe("0 messages");
    expect(pluralise(2, "run")).toBe("2 runs");
  });
  it("formats the count with thousands separators", () => {
    expect(pluralise(1120, "run")).toBe("1,120 runs");
  });
  it("takes an irregular plural", () => {
    expect(pluralise(3, "entry", "entries")).toBe("3 entries");
    expect(pluralise(1, "entry", "entries")).toBe("1 entry");
  });
});

describe("formatNumber", () => {
  it("separates thousands the same way everywhere", () => {
    expect(formatNumber(1120)).toBe("1,120");
    expect(formatNumber(49901)).toBe("49,901");
    expect(formatNumber(7)).toBe("7");
  });
});

describe("formatDateTime", () => {
  const at = new Date("2026-12-03T13:06:50Z");
  it("writes a UTC moment in the console's one format, marked UTC", () => {
    expect(formatDateTime(at, "UTC")).toBe("Dec 3, 2026, 1:06 PM UTC");
  });
  it("writes another zone in the same format without the mark", () => {
    expect(formatDateTime(at.toISOString(), "Europe/Paris")).toBe("Dec 3, 2026, 2:06 PM");
  });
});
