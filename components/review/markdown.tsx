// A small Markdown renderer for SKILL.md: frontmatter, headings, lists, fenced code,
// paragraphs, inline code, bold and italics. It builds React elements (never HTML strings),
// so distilled text cannot inject markup.
import { Fragment } from "react";

type Block =
  | { kind: "heading"; level: number; text: string }
  | { kind: "list"; ordered: boolean; items: string[] }
  | { kind: "code"; text: string }
  | { kind: "paragraph"; text: string }
  | { kind: "frontmatter"; text: string };

const FRONTMATTER = /^\s*---\r?\n([\s\S]*?)\r?\n---\s*(?:\r?\n|$)/;
const LIST_ITEM = /^\s*([-*+]|\d+[.)])\s+(.*)$/;

export function parseBlocks(source: string): Block[] {
  const blocks: Block[] = [];
  let body = source;
  const fm = FRONTMATTER.exec(source);
  if (fm) {
    blocks.push({ kind: "frontmatter", text: fm[1] });
    body = source.slice(fm[0].length);
  }
  const lines = body.split(/\r?\n/);
  let para: string[] = [];
  const flush = () => {
    if (para.length) blocks.push({ kind: "paragraph", text: para.join(" ") });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*```/.test(line)) {
      flush();
      const code: string[] = [];
      while (++i < lines.length && !/^\s*```/.test(lines[i])) code.push(lines[i]);
      blocks.push({ kind: "code", text: code.join("\n") });
      continue;
    }
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h) {
      flush();
      blocks.push({ kind: "heading", level: h[1].length, text: h[2].trim() });
      continue;
    }
    const li = LIST_ITEM.exec(line);
    if (li) {
      flush();
      const ordered = /\d/.test(li[1]);
      const prev = blocks[blocks.length - 1];
      if (prev?.kind === "list" && prev.ordered === ordered) prev.items.push(li[2]);
      else blocks.push({ kind: "list", ordered, items: [li[2]] });
      continue;
    }
    if (!line.trim()) {
      flush();
      continue;
    }
    // A continuation line of a list item belongs to it.
    const prev = blocks[blocks.length - 1];
    if (!para.length && prev?.kind === "list" && /^\s+\S/.test(line)) prev.items[prev.items.length - 1] += " " + line.trim();
    else para.push(line.trim());
  }
  flush();
  return blocks;
}

const INLINE = /(`[^`]+`|\*\*[^*]+\*\*|\*[^*\s][^*]*\*|_[^_\s][^_]*_)/g;

function Inline({ text }: { text: string }) {
  const parts = text.split(INLINE);
  return (
    <>
      {parts.map((p, i) => {
        if (p.startsWith("`") && p.endsWith("`") && p.length > 1) return <code key={i} className="rounded bg-slate-100 px-1 font-mono text-[0.85em] dark:bg-slate-800">{p.slice(1, -1)}</code>;
        if (p.startsWith("**") && p.endsWith("**") && p.length > 3) return <strong key={i}>{p.slice(2, -2)}</strong>;
        if ((p.startsWith("*") && p.endsWith("*")) || (p.startsWith("_") && p.endsWith("_") && p.length > 2)) return <em key={i}>{p.slice(1, -1)}</em>;
        return <Fragment key={i}>{p}</Fragment>;
      })}
    </>
  );
}

const HEADING = ["text-base font-semibold", "text-sm font-semibold", "text-sm font-semibold", "text-sm font-medium", "text-sm font-medium", "text-sm font-medium"];

export function Markdown({ source }: { source: string }) {
  return (
    <div className="space-y-3 text-sm leading-relaxed break-words">
      {parseBlocks(source).map((b, i) => {
        switch (b.kind) {
          case "frontmatter":
            return (
              <pre key={i} className="overflow-x-auto rounded-md border border-slate-200 bg-slate-50 p-2 font-mono text-xs whitespace-pre-wrap dark:border-slate-800 dark:bg-slate-900">
                {b.text}
              </pre>
            );
          case "heading": {
            // Inside a page section: headings start at h3 so the page outline stays intact.
            const Tag = (`h${Math.min(6, b.level + 2)}`) as "h3" | "h4" | "h5" | "h6";
            return <Tag key={i} className={`${HEADING[b.level - 1]} pt-1`}><Inline text={b.text} /></Tag>;
          }
          case "list": {
            const Tag = b.ordered ? "ol" : "ul";
            return (
              <Tag key={i} className={`space-y-1 pl-5 ${b.ordered ? "list-decimal" : "list-disc"}`}>
                {b.items.map((item, j) => <li key={j}><Inline text={item} /></li>)}
              </Tag>
            );
          }
          case "code":
            return <pre key={i} className="overflow-x-auto rounded-md bg-slate-100 p-2 font-mono text-xs whitespace-pre-wrap dark:bg-slate-900">{b.text}</pre>;
          default:
            return <p key={i}><Inline text={b.text} /></p>;
        }
      })}
    </div>
  );
}
