// The text that stalled the server (tests/helpers/hostile-text.ts) gives the right results: the
// patterns that saw it are linear now (tests/unit/lib-patterns.test.ts proves that), and these
// check that the rewrites still read text as before.
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { HOSTILE_TEXT } from "../helpers/hostile-text";
import { contentTerms, kebabName } from "@/lib/learning/classes/content-terms";
import { findLeak, leakProbes } from "@/lib/learning/distill/leaks";
import { parseSkillMd, sections } from "@/lib/learning/distill/skill-md";
import { judgeVerdict } from "@/lib/learning/distill/judge";
import { toolMentions } from "@/lib/learning/distill/tool-mentions";
import { agentSkillName, fromAgentSkillMd } from "@/lib/learning/skills-io/agent-skills-format";
import { explicitGoals } from "@/lib/persona/reflector";
import { answerMatches } from "@/lib/experiments/scoring";
import { caseInput } from "@/lib/experiments/schemas";
import { MAX_ANSWER_PATTERN_CHARS, MAX_PATTERN_ANSWER_CHARS } from "@/lib/experiments/answer-pattern";
import { reportCsv } from "@/lib/experiments/export";
import type { ExperimentReport } from "@/lib/experiments/report";
import { trimEdges } from "@/lib/text/trim-edges";

describe("trimEdges", () => {
  it("cuts runs at either end, code point by code point", () => {
    expect(trimEdges("--a-b--", /-/)).toBe("a-b");
    expect(trimEdges("--a-b--", /-/, "end")).toBe("--a-b");
    expect(trimEdges("----", /-/)).toBe("");
    expect(trimEdges("😀!a!😀", /[^\p{L}\p{N}]/u)).toBe("a");
    expect(trimEdges("a\ud800", /[^\p{L}\p{N}]/u)).toBe("a");
  });
});

describe("regex bombs read correctly", () => {
  it("a query with 65,000 punctuation marks between letters has no content term; one around a word keeps it", () => {
    expect(contentTerms(HOSTILE_TEXT.edgePunctuation)).toEqual([]);
    const bang = "!".repeat(65_000);
    expect(contentTerms(`${bang}refunds${bang} order`).map((t) => t.term)).toEqual(["refund", "order"]);
  });

  it("the leak check finds the e-mail address after a long run of address characters", () => {
    for (const run of [HOSTILE_TEXT.emailLocalRun, HOSTILE_TEXT.emailDomainRun]) {
      const probes = leakProbes([], [`${run} mail bob@example.com about order A1234.`]);
      expect(probes.map((p) => p.value)).toEqual(expect.arrayContaining(["bob@example.com", "A1234"]));
      expect(findLeak("Write to BOB@example.com", probes)).toBe("bob@example.com");
      expect(findLeak("Write to bob@example.community", probes)).toBeNull();
      expect(findLeak("Order XA1234 is another one", probes)).toBeNull();
    }
  });

  it("a heading with 2,000 spaces before a closing '#x' keeps its title; closing hashes are cut", () => {
    const [section] = sections(`${HOSTILE_TEXT.sectionHeading}\nbody`);
    expect(section).toEqual({ title: `a${" ".repeat(2_000)}#x`, level: 1, text: "body" });
    expect(sections("## Steps ##  \n1. go\n####### not a heading").map((s) => [s.title, s.level])).toEqual([["Steps", 2]]);
    expect(sections("# C#\n").map((s) => s.title)).toEqual(["C"]);
  });

  it("names, verdicts, tool mentions and goals read as before", () => {
    expect(kebabName(["--Refund--", "Order!"])).toBe("refund-order");
    expect(agentSkillName("  --Refund an order--  ")).toBe("refund-an-order");
    expect(judgeVerdict("YES!!! it is")).toBe("YES");
    // Backticked, then as a call: the same mention read by two rules.
    expect(toolMentions("`  lookup_order(id)  ` and `x" + " ".repeat(5_000) + "y`")).toEqual([
      { name: "lookup_order", call: true },
      { name: "lookup_order", call: true },
    ]);
    expect(explicitGoals("My goal is to learn Spanish;;, and I want to travel.")).toEqual(["Learn Spanish", "Travel"]);
  });
});

describe("experiment answer patterns run in a linear engine", () => {
  it("the nested-quantifier pattern gives the right answers", () => {
    const { pattern, answer } = HOSTILE_TEXT.answerPattern;
    expect(answerMatches(pattern, answer, "regex")).toBe(false);
    expect(answerMatches(pattern, "refund done", "regex")).toBe(true);
    expect(answerMatches(String.raw`order \u0041\d+`, "your order A12 is refunded", "regex")).toBe(true);
    expect(answerMatches("done", "done" + " ".repeat(MAX_PATTERN_ANSWER_CHARS), "regex")).toBe(false);
  });

  it("patterns without a linear form, or too long, are refused at creation naming expected_answer", () => {
    const kase = (expected_answer: string) => caseInput.safeParse({ request: "Refund order 1", expected_answer, answer_match: "regex" });
    expect(kase(HOSTILE_TEXT.answerPattern.pattern).success).toBe(true);
    for (const bad of [String.raw`(a)\1`, "(?=a)b", "a".repeat(MAX_ANSWER_PATTERN_CHARS + 1)]) {
      const r = kase(bad);
      expect(r.success).toBe(false);
      expect(r.error!.issues.map((i) => i.path.join("/"))).toEqual(["expected_answer"]);
      expect(r.error!.issues[0].message).toMatch(/^expected_answer /);
    }
  });
});

describe("YAML alias bombs", () => {
  it("a billion-laughs SKILL.md is refused as that file's problem, not thrown", () => {
    expect(parseSkillMd(HOSTILE_TEXT.billionLaughs)).toBeNull();
    const r = fromAgentSkillMd(HOSTILE_TEXT.billionLaughs, "laughs");
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reasons[0]).toMatch(/aliases expand to at most 100/);
  });
});

describe("CSV exports", () => {
  it("the experiment report escapes a case id a spreadsheet would run as a formula; numbers stay numbers", () => {
    const report = {
      cases: [{ case_id: HOSTILE_TEXT.csvFormula, arm_order: ["baseline", "=HYPERLINK()"] }],
      rows: [{ case_id: HOSTILE_TEXT.csvFormula, arm: "baseline", reported: 1, figures: { workflow_accuracy: -0.5 } }],
      aggregates: [],
      deltas: [],
      arm_order: { statement: "@SUM(A1)" },
    } as unknown as ExperimentReport;
    const [, row, order] = parse(reportCsv(report)) as string[][];
    expect(row[1]).toBe(`'${HOSTILE_TEXT.csvFormula}`);
    expect(row[4]).toBe("-0.5");
    expect(row.at(-2)).toBe("baseline > =HYPERLINK()");
    expect(order.at(-1)).toBe("'@SUM(A1)");
  });
});
