import { describe, expect, it, vi } from "vitest";
import { validateSkill, type Judge } from "@/lib/learning/distill/validation-gate";
import { deterministicJudge, judgeVerdict, llmJudge } from "@/lib/learning/distill/judge";
import type { ChatModel } from "@/lib/llm/client";
import { FAILURES, GOOD_SKILL, SUCCESSES, TOOLBOX, TOOL_PATH, run } from "./fixtures";

const QUERIES = SUCCESSES.map((r) => r.query);

const yes: Judge = async () => ({ ok: true, reasons: [] });
const validate = (content: string, judge: Judge = yes, extra: Partial<Parameters<typeof validateSkill>[0]> = {}) =>
  validateSkill({ content, toolbox: TOOLBOX, maxChars: 4000, successes: SUCCESSES, failures: FAILURES, judge, ...extra });

const model = (answer: () => Promise<string>): ChatModel & { prompts: string[] } => {
  const prompts: string[] = [];
  return {
    model: "fake",
    prompts,
    complete: async ({ prompt }) => {
      prompts.push(prompt);
      return answer();
    },
  };
};

describe("validation gate", () => {
  it("accepts a valid document", async () => {
    expect(await validate(GOOD_SKILL)).toEqual({ ok: true, reasons: [] });
  });

  it("rejects INSUFFICIENT and an empty answer", async () => {
    expect((await validate("INSUFFICIENT")).reasons).toEqual(["distillation returned INSUFFICIENT"]);
    expect((await validate("  insufficient: the runs disagree")).reasons).toEqual(["distillation returned INSUFFICIENT"]);
    expect((await validate("   ")).reasons).toEqual(["distillation returned INSUFFICIENT"]);
  });

  it("rejects a document without frontmatter", async () => {
    expect((await validate("# just a heading\n## Procedure")).reasons).toEqual(["frontmatter failed to parse"]);
  });

  it("rejects missing fields, an unknown tool and an empty tool list", async () => {
    const doc = GOOD_SKILL.replace("name: refund-paid-order\n", "").replace("tools: [lookup_order, issue_refund]", "tools: [lookup_order, issue_refund, teleport]");
    const v = await validate(doc);
    expect(v.ok).toBe(false);
    expect(v.reasons).toContain("frontmatter missing 'name'");
    expect(v.reasons).toContain("tool not found in toolbox: teleport");
    const noTools = await validate(GOOD_SKILL.replace("tools: [lookup_order, issue_refund]", "tools: []").replace(/Call `(\w+)`/g, "Use `$1`"));
    expect(noTools.reasons).toContain("frontmatter declares no tools");
    const noPre = await validate(GOOD_SKILL.replace(/preconditions:\n(  - .*\n)+/, "preconditions: []\n"));
    expect(noPre.reasons).toContain("frontmatter has no preconditions");
  });

  it("rejects a hallucinated tool call in the procedure", async () => {
    const v = await validate(GOOD_SKILL.replace("## Failure modes observed", "3. Calling `magic_undo` with {}\n\n## Failure modes observed"));
    expect(v.reasons).toEqual(["procedure calls undeclared tool: magic_undo"]);
  });

  describe("undeclared tools", () => {
    const withLine = (line: string) => validate(GOOD_SKILL.replace("## Failure modes observed", `${line}\n\n## Failure modes observed`));
    const fields = new Map([["issue_refund", new Set(["reason_code"])]]);

    it("rejects backticked names that are neither a declared tool nor a field of one, and call-like mentions", async () => {
      expect((await withLine("3. Use `delete_account` to close the account")).reasons).toEqual(["procedure names undeclared tool or field: delete_account"]);
      expect((await withLine("3. Invoke `x`")).reasons).toEqual(["procedure calls undeclared tool: x"]);
      expect((await withLine("3. Then call wipe() to clean up")).reasons).toEqual(["procedure calls undeclared tool: wipe"]);
      expect((await withLine("3. Finish with close_ticket(...)")).reasons).toEqual(["procedure calls undeclared tool: close_ticket"]);
      expect((await withLine("3. notifyCustomer(order_id=<id>) afterwards")).reasons).toEqual(["procedure calls undeclared tool: notifyCustomer"]);
      expect((await withLine("3. Use delete_account when nothing else works")).reasons).toEqual(["procedure names undeclared tool or field: delete_account"]);
      expect((await withLine("3. Invoking `send_email` is optional")).reasons).toEqual(["procedure calls undeclared tool: send_email"]);
      // A toolbox tool the frontmatter does not declare is undeclared too.
      expect((await withLine("3. Check `send_email`")).reasons).toEqual(["procedure names undeclared tool or field: send_email"]);
      // The frontmatter is read as well as the body.
      const pre = await validate(GOOD_SKILL.replace("  - The order is paid", "  - The order is paid and `ban_user` was not needed"));
      expect(pre.reasons).toEqual(["procedure names undeclared tool or field: ban_user"]);
      // Each name once, as a call when it is called anywhere.
      expect((await withLine("3. Call `magic_undo`, then `magic_undo` again")).reasons).toEqual(["procedure calls undeclared tool: magic_undo"]);
    });

    it("accepts declared tools, their declared and observed fields, and ordinary prose", async () => {
      for (const line of [
        "3. Use `lookup_order` again only if `status` is not `paid`; `order_id` and `amount` come from the request.",
        "3. The refund answer's `accepted` and `refund_ref` say whether it went through; `RefundWindowClosed` means too late.",
        "3. Use the order id from the request; call the customer back if the value(s) are missing.",
        "3. Use when in doubt, invoke patience, and note the amount(in cents) (e.g. 1250).",
        "3. Call `issue_refund()` with `lookup_order.status` checked; `null` and `string` are fine.",
        "3. Call lookup_order(order_id=...) first.",
      ]) expect((await withLine(line)).reasons, line).toEqual([]);
      expect((await validate(GOOD_SKILL.replace("## Failure modes observed", "3. Pass `reason_code` when known\n\n## Failure modes observed"), yes, { toolFields: fields })).ok).toBe(true);
      expect((await withLine("3. Pass `reason_code` when known")).reasons).toEqual(["procedure names undeclared tool or field: reason_code"]);
    });
  });

  it("rejects a description that dumps the tool sequence", async () => {
    const v = await validate(GOOD_SKILL.replace(/description: .*/, "description: lookup_order then issue_refund"));
    expect(v.reasons).toEqual(["description is a tool-sequence dump"]);
  });

  it("requires the sections and the When NOT to apply line", async () => {
    const noNot = await validate(GOOD_SKILL.replace(/When NOT to apply: .*\n/, ""));
    expect(noNot.reasons).toEqual(["missing 'When NOT to apply' line under When to apply"]);
    const misplaced = await validate(GOOD_SKILL.replace(/When NOT to apply: .*\n/, "").replace("## Worked example", "When NOT to apply: never.\n\n## Worked example"));
    expect(misplaced.reasons).toEqual(["missing 'When NOT to apply' line under When to apply"]);
    const noSections = await validate(GOOD_SKILL.replace("## Procedure", "## Steps").replace("## Failure modes observed", "## Problems"));
    expect(noSections.reasons).toEqual(["missing section: Procedure", "missing section: Failure modes observed"]);
  });

  it("rejects an oversize document", async () => {
    const v = await validate(GOOD_SKILL, yes, { maxChars: 300 });
    expect(v.reasons).toEqual([`content exceeds 300 chars (${GOOD_SKILL.trim().length})`]);
  });

  it("rejects literal values leaked from success runs, failed runs, nested arguments, results and queries", async () => {
    const leak = async (text: string) => (await validate(GOOD_SKILL.replace("## Worked example", `## Worked example\n${text}`))).reasons;
    expect(await leak("Example: ORD-88121")).toEqual(["literal value leaked into skill: 'ORD-88121'"]);
    expect(await leak("Example: ORD-66001")).toEqual(["literal value leaked into skill: 'ORD-66001'"]);
    expect(await leak("Mail pat@example.com")).toEqual(["literal value leaked into skill: 'pat@example.com'"]);
    expect(await leak("Refund ref RF-ORD-77310-0091")).toEqual(["literal value leaked into skill: 'RF-ORD-77310-0091'"]);
    // Short identifiers from the queries count too, as whole tokens.
    const shortIds = [run("A1", 5, { query: "Refund order A1 for bob@shop.io" }), run("Z9", 6, { query: "refund order z9 now" })];
    const v = await validateSkill({ content: GOOD_SKILL.replace("## Worked example", "## Worked example\nOrder Z9 was refunded."), toolbox: TOOLBOX, maxChars: 4000, successes: shortIds, failures: [], judge: yes });
    expect(v.reasons).toEqual(["literal value leaked into skill: 'z9'"]);
    const email = await validateSkill({ content: GOOD_SKILL.replace("## Worked example", "## Worked example\nbob@shop.io"), toolbox: TOOLBOX, maxChars: 4000, successes: shortIds, failures: [], judge: yes });
    expect(email.reasons[0]).toContain("bob@shop.io");
    // "A1" inside a longer word is not that identifier.
    expect((await validateSkill({ content: GOOD_SKILL.replace("## Worked example", "## Worked example\nSee KA1B."), toolbox: TOOLBOX, maxChars: 4000, successes: shortIds, failures: [], judge: yes })).ok).toBe(true);
  });

  it("collects every machine reason and never calls the judge when one fails", async () => {
    const judge = vi.fn(yes);
    const v = await validate(GOOD_SKILL.replace(/description: .*/, "description: issue_refund").replace("## Procedure", "## Steps"), judge);
    expect(v.reasons).toEqual(["description is a tool-sequence dump", "missing section: Procedure"]);
    expect(judge).not.toHaveBeenCalled();
  });
});

describe("LLM judge fails closed", () => {
  it("passes on YES, rejects on NO with the excerpt", async () => {
    expect(await validate(GOOD_SKILL, llmJudge(model(async () => "YES. It reproduces the runs.")))).toEqual({ ok: true, reasons: [] });
    const no = await validate(GOOD_SKILL, llmJudge(model(async () => "NO it ignores the refund window")));
    expect(no).toEqual({ ok: false, reasons: ["LLM judge rejected: NO it ignores the refund window"] });
  });

  it("sees the failed runs", async () => {
    const m = model(async () => "YES");
    await validate(GOOD_SKILL, llmJudge(m));
    expect(m.prompts[0]).toContain("OBSERVED FAILED RUNS");
    expect(m.prompts[0]).toContain("OBSERVED SUCCESSFUL RUNS");
    expect(m.prompts[0]).toContain("RefundWindowClosed");
  });

  it("rejects on an error, a timeout or an empty answer", async () => {
    for (const answer of [async () => Promise.reject(new Error("boom")), async () => "", async () => "   \n "]) {
      expect(await validate(GOOD_SKILL, llmJudge(model(answer)))).toEqual({ ok: false, reasons: ["judge unavailable"] });
    }
  });

  it("takes the verdict from the first word only", () => {
    expect(judgeVerdict("NO (not YES)")).toBe("NO");
    expect(judgeVerdict("YES, plausibly")).toBe("YES");
    expect(judgeVerdict("Maybe YES")).toBeNull();
    expect(judgeVerdict("yes")).toBeNull();
    expect(judgeVerdict("YESNO")).toBeNull();
  });

  it("rejects an answer whose first word is not exactly YES", async () => {
    const v = await validate(GOOD_SKILL, llmJudge(model(async () => "NO (not YES)")));
    expect(v.ok).toBe(false);
    const unclear = await validate(GOOD_SKILL, llmJudge(model(async () => "Probably YES")));
    expect(unclear.ok).toBe(false);
  });
});

describe("deterministic judge", () => {
  it("accepts the class's tool order with every failing tool covered", async () => {
    expect(await validate(GOOD_SKILL, deterministicJudge(TOOL_PATH, QUERIES))).toEqual({ ok: true, reasons: [] });
  });
  it("rejects another tool order", async () => {
    const v = await validate(GOOD_SKILL, deterministicJudge(["issue_refund", "lookup_order"], QUERIES));
    expect(v.ok).toBe(false);
    expect(v.reasons[0]).toContain("differs from the class's tool path");
  });
  it("rejects a description or preconditions that name nothing the class's queries share", async () => {
    const generic = GOOD_SKILL.replace(
      /description: .*\npreconditions:\n(  - .*\n)+/,
      "description: Use when a request asks for this recurring kind of request.\npreconditions:\n  - The request asks for this recurring kind of request\n",
    );
    expect(generic).not.toBe(GOOD_SKILL);
    expect((await validate(generic, deterministicJudge(TOOL_PATH, QUERIES))).reasons).toEqual([
      "description is generic: it names no term the class's queries share",
      "preconditions are generic: they name no term the class's queries share",
    ]);
    // The same document judged against another class's queries is generic too.
    const other = await validate(GOOD_SKILL, deterministicJudge(TOOL_PATH, ["Reset my password", "I forgot my password", "password reset please"]));
    expect(other.reasons).toContain("description is generic: it names no term the class's queries share");
  });
  it("rejects when a failing tool has no failure mode", async () => {
    const v = await validate(GOOD_SKILL.replace(/- `issue_refund` fails.*\n/, "- None observed.\n"), deterministicJudge(TOOL_PATH, QUERIES));
    expect(v.reasons).toEqual(["no failure mode covers failing tool: issue_refund"]);
  });
});
