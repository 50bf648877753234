// The Agent Skills format's rules (name ≤ 64 of [a-z0-9-], unique in an archive, description
// ≤ 1024, folder = name), our SKILL.md through it and back, an imported SKILL.md checked against
// the specification only (kept as it came, fields outside it warned about), and the reference
// trajectory hash MemoRizz documents are imported with.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { parse } from "yaml";
import { agentSkillName, fromAgentSkillMd, isAgentSkillName, toAgentSkillMd, uniqueAgentSkillNames, whenToUse, type ExportedSkill } from "@/lib/learning/skills-io/agent-skills-format";
import { referenceHash, referenceSignature, timestampMicros } from "@/lib/learning/skills-io/memorizz-reference-hash";
import { readMemorizzFile, type MemorizzWorkflow } from "@/lib/learning/skills-io/memorizz-documents";
import { parseSkillMd, printFrontmatter } from "@/lib/learning/distill/skill-md";

const BODY = "# Refund a paid order\n\n## When to apply\nA refund of a paid order. When NOT to apply: unpaid orders.\n\n## Procedure\n1. Call `lookup_order`.\n";
const skill = (over: Partial<ExportedSkill> = {}): ExportedSkill => ({
  id: "sk1",
  name: "Refund a paid order",
  description: "Use when a customer asks for a refund: order id known.",
  preconditions: ["the order id is known", "the order is paid"],
  tools: ["lookup_order", "issue_refund"],
  content: `${printFrontmatter({ name: "Refund a paid order", description: "d", preconditions: ["p"], tools: ["lookup_order"] })}\n${BODY}`,
  version: 3,
  authority: "developer",
  baselineSuccessRate: 0.875,
  sourceClass: "5e6b70e8",
  ...over,
});
const frontmatterOf = (md: string) => parse(md.split("\n---\n")[0].replace(/^---\n/, ""));

describe("Agent Skills names", () => {
  it("derives a valid name from any text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        const name = agentSkillName(s);
        expect(isAgentSkillName(name)).toBe(true);
        expect(name.length).toBeLessThanOrEqual(64);
      }),
    );
    expect(agentSkillName("Refund a PAID order!")).toBe("refund-a-paid-order");
    expect(agentSkillName("Crème brûlée -- v2")).toBe("creme-brulee-v2");
    expect(agentSkillName("***")).toBe("skill");
  });

  it("cuts long names to 64 characters without a trailing hyphen", () => {
    const name = agentSkillName(`${"a".repeat(63)} tail`);
    expect(name).toBe("a".repeat(63));
    expect(agentSkillName(`${"ab-".repeat(30)}`).endsWith("-")).toBe(false);
  });

  it("makes colliding names unique, the same way every time, within 64 characters", () => {
    const input = ["Refund", "refund", "REFUND!", "refund-2", "x".repeat(80), "x".repeat(90)];
    const names = uniqueAgentSkillNames(input);
    expect(new Set(names).size).toBe(names.length);
    expect(names.every(isAgentSkillName)).toBe(true);
    expect(names.slice(0, 4)).toEqual(["refund", "refund-2", "refund-3", "refund-2-2"]);
    expect(uniqueAgentSkillNames(input)).toEqual(names);
    fc.assert(
      fc.property(fc.array(fc.constantFrom("a", "A", "a!", "a-2", "b"), { maxLength: 30 }), (xs) => {
        const out = uniqueAgentSkillNames(xs);
        expect(new Set(out).size).toBe(xs.length);
        expect(out.every(isAgentSkillName)).toBe(true);
      }),
    );
  });
});

describe("SKILL.md to the Agent Skills format and back", () => {
  it("writes the format's frontmatter with our fields as string metadata, and keeps the body", () => {
    const md = toAgentSkillMd(skill(), "refund-a-paid-order");
    const fm = frontmatterOf(md);
    expect(Object.keys(fm)).toEqual(["name", "description", "metadata", "allowed-tools"]);
    expect(fm.metadata).toEqual({
      id: "sk1",
      version: "3",
      authority: "developer",
      "baseline-success-rate": "0.875",
      "source-class": "5e6b70e8",
      preconditions: "the order id is known\nthe order is paid",
    });
    expect(fm["allowed-tools"]).toBe("lookup_order issue_refund");
    expect(parseSkillMd(md)!.body).toBe(BODY);
  });

  it("cuts a description over 1024 characters", () => {
    expect(frontmatterOf(toAgentSkillMd(skill({ description: "d".repeat(2000) }), "x")).description).toHaveLength(1024);
  });

  it("reads it back as it came: the same text, name, description, preconditions, tools and body", () => {
    const md = toAgentSkillMd(skill(), "refund-a-paid-order");
    const read = fromAgentSkillMd(md, "refund-a-paid-order");
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.skill).toMatchObject({
      name: "refund-a-paid-order",
      description: skill().description,
      preconditions: skill().preconditions,
      tools: skill().tools,
      body: BODY,
      content: md,
      warnings: [],
    });
  });

  it("refuses what the format forbids, with every reason", () => {
    const refused = (md: string, folder: string | null = null) => {
      const r = fromAgentSkillMd(md, folder);
      return r.ok ? [] : r.reasons;
    };
    expect(refused("no frontmatter")[0]).toMatch(/^frontmatter failed to parse/);
    expect(refused("---\nname: Bad Name\ndescription: x\n---\nbody")[0]).toMatch(/name must be at most 64/);
    expect(refused(`---\nname: ${"a".repeat(65)}\ndescription: x\n---\n`)[0]).toMatch(/name must be/);
    expect(refused("---\nname: a--b\ndescription: x\n---\n")[0]).toMatch(/name must be/);
    expect(refused("---\nname: ok\ndescription: x\n---\n", "other")).toEqual(["name 'ok' does not match its folder 'other'"]);
    expect(refused(`---\nname: ok\ndescription: ${"d".repeat(1025)}\n---\n`)).toEqual(["description exceeds 1024 characters"]);
    expect(refused("---\nname: ok\n---\n")).toEqual(["frontmatter missing 'description'"]);
    expect(refused(`---\nname: ok\ndescription: x\ncompatibility: ${"c".repeat(501)}\nmetadata: [1]\n---\n`)).toEqual([
      "compatibility exceeds 500 characters",
      "metadata must be a mapping",
    ]);
  });
});

describe("an imported SKILL.md against the Agent Skills specification", () => {
  const md = [
    "---",
    "name: web-check",
    "description: Check a local web app in a browser. Use when asked to test a web app.",
    "license: Complete terms in LICENSE.txt",
    "allowed-tools: Bash, Read Write",
    "compatibility: Needs Python 3.10+",
    "metadata:",
    "  author: someone",
    "  priority: 3",
    "version: 2.0.1",
    "tags: [web]",
    "---",
    "",
    "# Web check",
    "",
    "## When to use this skill",
    "- Testing a web app on localhost",
    "- **Debugging** a form that does not submit",
    "",
    "## When NOT to use",
    "- Load tests",
    "",
  ].join("\r\n");

  it("keeps the text as it came and warns about fields outside the specification, never refusing them", () => {
    const read = fromAgentSkillMd(md, "web-check");
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.skill.content).toBe(md);
    expect(read.skill.tools).toEqual(["Bash", "Read", "Write"]);
    expect(read.skill.warnings).toEqual([
      "frontmatter fields outside the Agent Skills specification, kept as imported: version, tags",
      "metadata values that are not strings (the specification maps strings to strings): priority",
    ]);
  });

  it("reads the When to use lines, not the When NOT to use ones", () => {
    expect(whenToUse("## When to use this skill\n- Testing a web app on localhost\n- **Debugging** a form\n\n## When NOT to use\n- Load tests\n")).toEqual([
      "Testing a web app on localhost",
      "Debugging a form",
    ]);
    expect(whenToUse("## When to apply\nA refund of a paid order.\nWhen NOT to apply: unpaid orders.\n")).toEqual(["A refund of a paid order."]);
    expect(whenToUse("# Usage\nanything\n")).toEqual([]);
  });

  it("never asks for Proctor's distilled sections or checks names in the body", () => {
    const read = fromAgentSkillMd("---\nname: bare\ndescription: Does one thing.\n---\nRun `sync_playwright()` then `page.wait_for_selector`.\n", "bare");
    expect(read.ok).toBe(true);
  });

  it("refuses an empty compatibility", () => {
    const read = fromAgentSkillMd("---\nname: ok\ndescription: x\ncompatibility: ''\n---\n", null);
    expect(read.ok ? [] : read.reasons).toEqual(["compatibility must be a non-empty string"]);
  });

  it("keeps reserved names for imported skills when distilled ones are named", () => {
    expect(uniqueAgentSkillNames(["Web check", "web-check"], new Set(["web-check"]))).toEqual(["web-check-2", "web-check-3"]);
  });
});

describe("the reference trajectory hash (MemoRizz)", () => {
  const steps = {
    "Step 1: lookup_order": { arguments: { order_id: "A1" }, error: null },
    "Step 2: issue_refund": { arguments: { order_id: "A1", amount: 12.5 }, error: null },
  };

  it("gives the spec's test vector", () => {
    expect(referenceHash(referenceSignature(steps))).toBe("5e6b70e86ec21732b51dd93e2ddd9627b12c43186d3d048e7a8d356b41c37e12");
  });

  it("orders by timestamps when all have one, reads only top-level keys, folds retries into a flag", () => {
    const sig = referenceSignature({
      "Step 2: issue_refund": { arguments: { order_id: "A1", refund: { amount: 1 } }, timestamp: "2026-01-01T00:00:03" },
      "Step 1: lookup_order": { arguments: { order_id: "A1" }, timestamp: "2026-01-01T00:00:01", error: "TimeoutError" },
      "Step 9: lookup_order": { arguments: { order_id: "A2" }, timestamp: "2026-01-01T00:00:02", error: "" },
    });
    expect(sig).toEqual([
      { tool: "lookup_order", arg_keys: ["order_id"], errored: false, retry_count: 2 },
      { tool: "issue_refund", arg_keys: ["order_id", "refund"], errored: false, retry_count: 1 },
    ]);
    expect(referenceHash([])).toBeNull();
  });

  it("reads step keys with blanks before the colon, as MemoRizz's pattern does", () => {
    const spaced = { "Step 1 : lookup_order": steps["Step 1: lookup_order"], "Step 2  :issue_refund": steps["Step 2: issue_refund"] };
    expect(referenceSignature(spaced).map((u) => u.tool)).toEqual(["lookup_order", "issue_refund"]);
    expect(referenceHash(referenceSignature(spaced))).toBe("5e6b70e86ec21732b51dd93e2ddd9627b12c43186d3d048e7a8d356b41c37e12");
    // A document MemoRizz hashed with such keys is imported, its steps named by tool.
    const doc = { memory_type: "WORKFLOW_MEMORY", workflow_id: "w-spaced", steps: spaced, canonical_hash: "5e6b70e86ec21732b51dd93e2ddd9627b12c43186d3d048e7a8d356b41c37e12" };
    const read = readMemorizzFile(JSON.stringify(doc));
    expect(read.refused).toEqual([]);
    expect((read.documents[0] as MemorizzWorkflow).steps.map((s) => s.tool)).toEqual(["lookup_order", "issue_refund"]);
  });

  it("orders steps by their timestamps to the microsecond", () => {
    const sig = referenceSignature({
      "Step 1: issue_refund": { arguments: { order_id: "A1" }, timestamp: "2026-01-01T00:00:01.000002" },
      "Step 2: lookup_order": { arguments: { order_id: "A1" }, timestamp: "2026-01-01T00:00:01.000001" },
      "Step 3: notify": { arguments: {}, timestamp: "2026-01-01T00:00:01.0000039+00:00" },
    });
    expect(sig.map((u) => u.tool)).toEqual(["lookup_order", "issue_refund", "notify"]);
    expect(timestampMicros("2026-01-01T00:00:01.123456Z")! - timestampMicros("2026-01-01T00:00:01.123455Z")!).toBe(1);
    expect(timestampMicros("2026-01-01T00:00:01Z")).toBe(Date.UTC(2026, 0, 1, 0, 0, 1) * 1000);
    expect(timestampMicros("not a time")).toBeNull();
  });
});
