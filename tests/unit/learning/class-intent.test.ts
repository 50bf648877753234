// The template distiller refuses classes whose queries share no intent and names the others from
// the intent they share; content terms never include identifiers, numbers, e-mail addresses or names.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { classIntent } from "@/lib/learning/classes/class-intent";
import { contentTerms, kebabName } from "@/lib/learning/classes/content-terms";
import { distillAndValidate, templateDistiller } from "@/lib/learning/distill/distiller";
import { parseSkillMd } from "@/lib/learning/distill/skill-md";
import { templateDistill } from "@/lib/learning/distill/template-distiller";
import { distillInput, run, TOOLBOX } from "./fixtures";
import { COHERENT_CLASSES, VAGUE_CLASSES } from "../../helpers/offline-text";

const inputFor = (queries: string[]) =>
  distillInput({ successes: queries.map((q, i) => run(`ORD-${1000 + i}`, 10, { query: q })), failures: [], queries });

describe("template distillation of a class", () => {
  it.each(VAGUE_CLASSES.map((q) => [q[0], q]))("answers INSUFFICIENT for a vague class (%s, …)", async (_, queries) => {
    const r = await distillAndValidate(templateDistiller, inputFor(queries), TOOLBOX);
    expect(r.ok).toBe(false);
    expect((r as { reasons: string[] }).reasons).toHaveLength(1);
    expect((r as { reasons: string[] }).reasons[0]).toMatch(/^distillation returned INSUFFICIENT: (only \d+ of the 5 sampled queries carry content terms \(2 needed\)|the queries share no intent: )/);
  });

  it.each(COHERENT_CLASSES)("names a coherent class %s from its shared intent", async (name, queries) => {
    const r = await distillAndValidate(templateDistiller, inputFor(queries), TOOLBOX);
    expect(r, JSON.stringify(r)).toMatchObject({ ok: true });
    const fm = parseSkillMd((r as { content: string }).content)!.frontmatter;
    expect(fm.name).toBe(name);
    const intent = name.replace(/-/g, " ");
    expect(fm.preconditions).toContain(`The request asks for ${intent}`);
    expect(fm.description).toContain(intent);
  });

  it("refuses when fewer than the required queries carry content, and says how many did", () => {
    const queries = ["Refund order A1", "hello there", "sure, go ahead"];
    expect(templateDistill({ ...inputFor(queries), minDistinctQueries: 2 })).toEqual({ insufficient: "only 1 of the 3 sampled queries carry content terms (2 needed)" });
    expect(templateDistill({ ...inputFor(queries), minDistinctQueries: 1 })).toHaveProperty("content");
  });

  it("refuses queries that share one word but little else (mean pairwise similarity)", () => {
    const queries = ["order pizza margherita extra cheese", "order flowers roses tulips bouquet", "order taxi airport downtown tonight", "jazz music playlist", "weather forecast tomorrow"];
    const intent = classIntent(queries, 2);
    expect(intent.shared.map((s) => s.word)).toEqual(["order"]);
    expect(intent).toMatchObject({ ok: false, reason: expect.stringMatching(/^the queries share no intent: mean pairwise similarity 0\.\d\d < 0\.2$/) });
  });

  it("never names a skill after the e-mail domain of the requests", () => {
    const queries = COHERENT_CLASSES[1][1];
    const doc = templateDistill(inputFor(queries));
    const fm = parseSkillMd((doc as { content: string }).content)!.frontmatter;
    expect(fm.name).toBe("reset-password");
    expect([fm.description, ...fm.preconditions].join(" ")).not.toMatch(/example|\bcom\b/);
  });
});

describe("content terms", () => {
  it("drop stop words, identifiers, numbers, e-mail addresses and names, and stem the rest", () => {
    const words = (t: string) => contentTerms(t).map((x) => x.word);
    expect(words("Please refund my order ORD-77310 for 12.50, I'm pat@example.com")).toEqual(["refund", "order"]);
    expect(words("Book a flight to Berlin for Anna")).toEqual(["book", "flight"]);
    expect(words("Cancel Bob's subscription")).toEqual(["cancel", "subscription"]);
    // Title case says nothing about names.
    expect(words("Refund Order A1")).toEqual(["refund", "order"]);
    expect(words("hello there, sure, go ahead")).toEqual([]);
    expect(contentTerms("refunds refunded refunding").map((x) => x.term)).toEqual(["refund", "refund", "refund"]);
  });

  it("are the same with any identifier, number or e-mail address added", () => {
    const identifier = fc.tuple(fc.stringMatching(/^[A-Za-z-]{0,6}$/), fc.integer({ min: 0, max: 1e9 }), fc.stringMatching(/^[A-Za-z0-9-]{0,4}$/)).map(([a, n, b]) => `${a}${n}${b}`);
    const email = fc.emailAddress();
    fc.assert(
      fc.property(fc.array(fc.oneof(identifier, email), { minLength: 1, maxLength: 4 }), (values) => {
        const base = contentTerms("Reset the password of the account");
        expect(contentTerms(`Reset the password of the account ${values.join(" ")}`)).toEqual(base);
      }),
    );
    // An address whose local part starts with punctuation (a counterexample fast-check found).
    expect(contentTerms("Reset the password of the account !@a.aa")).toEqual(contentTerms("Reset the password of the account"));
  });

  it("make Agent Skills names: [a-z0-9-], no leading, trailing or double hyphen, at most 64 characters", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "grapheme", maxLength: 30 }), { maxLength: 12 }), (words) => {
        const name = kebabName(words);
        expect(name.length).toBeLessThanOrEqual(64);
        if (name) expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      }),
    );
    expect(kebabName(["Réinitialiser", "mot"])).toBe("reinitialiser-mot");
    expect(kebabName(["注文"])).toBe("");
  });
});
