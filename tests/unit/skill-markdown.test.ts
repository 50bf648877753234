// SKILL.md as reviewers see it: rendered to static markup exactly as the skill page renders it.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "@/components/review/markdown";

const render = (source: string) => renderToStaticMarkup(createElement(Markdown, { source }));

describe("SKILL.md rendering", () => {
  it("keeps snake_case identifiers as written instead of turning them into italics", () => {
    const html = render("Set unit_price and max_unit_price before calling `issue_refund`.");
    expect(html).toContain("Set unit_price and max_unit_price before calling");
    expect(html).not.toContain("<em>");
    expect(html).toMatch(/<code[^>]*>issue_refund<\/code>/);
  });

  it("renders a GFM table", () => {
    const html = render("| field | type |\n|---|---|\n| unit_price | number |\n| currency | string |");
    expect(html).toMatch(/<table[^>]*>/);
    expect(html).toMatch(/<th[^>]*>field<\/th>/);
    expect(html).toMatch(/<td[^>]*>unit_price<\/td><td[^>]*>number<\/td>/);
  });

  it("shows the frontmatter verbatim and shifts headings below the page's own", () => {
    const html = render("---\nname: refund-order\ntools: [lookup_order]\n---\n# Refund an order\n## When to apply\n- the order is paid");
    expect(html).toMatch(/<pre[^>]*>name: refund-order\ntools: \[lookup_order\]<\/pre>/);
    expect(html).toMatch(/<h3[^>]*>Refund an order<\/h3>/);
    expect(html).toMatch(/<h4[^>]*>When to apply<\/h4>/);
    expect(html).toMatch(/<li>the order is paid<\/li>/);
  });

  it("never turns document text into markup or script links", () => {
    const html = render("<script>alert(1)</script>\n\n[click](javascript:alert(1))\n\n```\n<b>x</b>\n```");
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain("<b>");
    expect(html).toContain("&lt;b&gt;x&lt;/b&gt;");
  });
});
