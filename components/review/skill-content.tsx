"use client";
// SKILL.md rendered as Markdown, or raw, with a copy button.
import { useState } from "react";
import { CodeBlock } from "../ui/code-block";
import { CopyButton } from "../ui/copy-button";
import { Markdown } from "./markdown";

export function SkillContent({ content }: { content: string }) {
  const [raw, setRaw] = useState(false);
  const tab = (on: boolean) =>
    `rounded px-2.5 py-1 text-xs font-medium focus-visible:outline-2 focus-visible:outline-indigo-500 ${on ? "bg-slate-200 text-slate-900 dark:bg-slate-700 dark:text-white" : "text-slate-600 hover:bg-slate-100 dark:text-slate-400 dark:hover:bg-slate-800"}`;
  return (
    <div>
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <div role="group" aria-label="SKILL.md view" className="flex gap-1">
          <button type="button" className={tab(!raw)} aria-pressed={!raw} onClick={() => setRaw(false)}>
            Rendered
          </button>
          <button type="button" className={tab(raw)} aria-pressed={raw} onClick={() => setRaw(true)}>
            Raw
          </button>
        </div>
        <CopyButton value={content} label="Copy SKILL.md" />
      </div>
      {raw ? <CodeBlock value={content} label="SKILL.md" /> : <div className="rounded-md border border-slate-200 p-3 dark:border-slate-800"><Markdown source={content} /></div>}
    </div>
  );
}
