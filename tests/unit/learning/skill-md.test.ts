import { describe, expect, it } from "vitest";
import { calledTools, findSection, parseSkillMd, printFrontmatter } from "@/lib/learning/distill/skill-md";

describe("SKILL.md parsing", () => {
  it("reads scalars, quoted values, inline and dash lists, and a scalar list as one item", () => {
    const doc = `\n---\nname: "refund-order"\ndescription: 'Use when asked for a refund.'\npreconditions: The order exists\ntools:\n  - lookup_order\n  - "issue_refund"\n---\n# body\n`;
    expect(parseSkillMd(doc)!.frontmatter).toEqual({
      name: "refund-order",
      description: "Use when asked for a refund.",
      preconditions: ["The order exists"],
      tools: ["lookup_order", "issue_refund"],
    });
    expect(parseSkillMd("---\nname: x\ntools: [a, 'b']\ndescription: >\n  folded\n  text\n---\n")!.frontmatter).toMatchObject({ tools: ["a", "b"], description: "folded text" });
  });

  it("requires the --- frontmatter --- structure", () => {
    expect(parseSkillMd("name: x\n# body")).toBeNull();
    expect(parseSkillMd("---\nname: x\n")).toBeNull();
    expect(parseSkillMd("---\nname: x\ndescription: Use when: asked\n---\n# body")).toBeNull();
  });

  it("prints frontmatter that reads back the same, quoting what YAML needs quoted", () => {
    const fm = { name: "refund-order", description: "Use when: the customer asks # for a refund", preconditions: ["`order_id` is known", "amount: positive"], tools: ["lookup_order"] };
    const printed = printFrontmatter(fm);
    expect(printed).toMatch(/^---\nname: refund-order\n[\s\S]*\ntools:\n  - lookup_order\n---$/);
    expect(parseSkillMd(`${printed}\n# body`)!.frontmatter).toEqual(fm);
  });

  it("finds sections by title up to the next heading of the same level", () => {
    const body = "# t\n## When to apply\nA\n### When NOT to apply\nB\n## Procedure\n1. Call `a` with {}\n2. calling `b`\nUse `c`";
    expect(findSection(body, "When to apply")!.text).toContain("When NOT to apply");
    expect(findSection(body, "when  to apply!")).toBeDefined();
    expect(calledTools(findSection(body, "Procedure")!.text)).toEqual(["a", "b"]);
  });
});
