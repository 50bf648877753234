// SKILL.md rendered with react-markdown + GitHub-flavoured Markdown (tables, strikethrough,
// task lists). The frontmatter is shown verbatim. Raw HTML in a document is shown as text,
// never as markup, and unsafe link protocols are dropped (react-markdown's defaults).
import type { ComponentProps } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { splitFrontmatter } from "@/lib/learning/distill/skill-md-split";

const HEADING = ["text-base font-semibold", "text-sm font-semibold", "text-sm font-semibold", "text-sm font-medium", "text-sm font-medium", "text-sm font-medium"];
type Tag = "h3" | "h4" | "h5" | "h6";

/** Inside a page section: headings start at h3 so the page outline stays intact. */
function heading(level: number) {
  const Tag = `h${Math.min(6, level + 2)}` as Tag;
  return function Heading({ node: _node, ...props }: ComponentProps<Tag> & { node?: unknown }) {
    return <Tag {...props} className={`${HEADING[level - 1]} pt-1`} />;
  };
}

const COMPONENTS: Components = {
  h1: heading(1),
  h2: heading(2),
  h3: heading(3),
  h4: heading(4),
  h5: heading(5),
  h6: heading(6),
  ul: ({ node: _node, ...props }) => <ul {...props} className="list-disc space-y-1 pl-5" />,
  ol: ({ node: _node, ...props }) => <ol {...props} className="list-decimal space-y-1 pl-5" />,
  code: ({ node: _node, ...props }) => <code {...props} className="rounded bg-slate-100 px-1 font-mono text-[0.85em] dark:bg-slate-800" />,
  pre: ({ node: _node, ...props }) => (
    <pre {...props} role="region" aria-label="Code" tabIndex={0} className="overflow-x-auto rounded-md focus-visible:outline-2 focus-visible:outline-indigo-500 bg-slate-100 p-2 font-mono text-xs whitespace-pre-wrap dark:bg-slate-900 [&_code]:bg-transparent [&_code]:p-0" />
  ),
  a: ({ node: _node, ...props }) => <a {...props} rel="nofollow noreferrer" className="text-indigo-700 underline dark:text-indigo-300" />,
  table: ({ node: _node, ...props }) => (
    <div role="region" aria-label="Table" tabIndex={0} className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-indigo-500">
      <table {...props} className="min-w-full border-collapse text-xs" />
    </div>
  ),
  th: ({ node: _node, ...props }) => <th {...props} className="border border-slate-200 bg-slate-50 px-2 py-1 text-left font-medium dark:border-slate-800 dark:bg-slate-900" />,
  td: ({ node: _node, ...props }) => <td {...props} className="border border-slate-200 px-2 py-1 align-top dark:border-slate-800" />,
};

export function Markdown({ source }: { source: string }) {
  const split = splitFrontmatter(source);
  return (
    <div className="space-y-3 text-sm leading-relaxed break-words">
      {split ? (
        <pre role="region" aria-label="Frontmatter" tabIndex={0} className="overflow-x-auto rounded-md border border-slate-200 bg-slate-50 p-2 focus-visible:outline-2 focus-visible:outline-indigo-500 font-mono text-xs whitespace-pre-wrap dark:border-slate-800 dark:bg-slate-900">
          {split.frontmatter}
        </pre>
      ) : null}
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={COMPONENTS}>
        {split ? split.body : source}
      </ReactMarkdown>
    </div>
  );
}
