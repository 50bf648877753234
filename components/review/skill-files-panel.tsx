// An imported skill's folder on its review page: every file with its size and sha256, scripts
// and binary files marked, text files opening in the viewer below the list, and the review
// warnings of the import (scan findings link to their file and line). The viewer renders the file
// as text nodes (React escapes them): a bundled HTML or Markdown file is shown, never rendered.
import Link from "@/components/ui/link";
import type { SkillDetail, SkillFileView } from "@/lib/learning/review/skill-detail";
import { SCAN_RULE_LABEL, type ScanRule } from "@/lib/learning/skills-io/script-scan";
import { Badge } from "../ui/badge";
import { CopyButton } from "../ui/copy-button";
import { linkClass, sectionTitle, shortHash } from "./styles";
import { pluralise } from "@/lib/text/format";

type Skill = SkillDetail["skill"];

const size = (n: number) => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

/** The review warnings of an import, scan findings linking to the file's line. */
export function ReviewWarnings({ warnings, fileHref }: { warnings: Skill["review_warnings"]; fileHref: (path: string) => string }) {
  if (!warnings.length) return null;
  return (
    <div role="note" aria-label="Review warnings" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200">
      <p className="font-medium">
        {pluralise(warnings.length, "review warning")} from the import (not refusals: read them before activating)
      </p>
      <ul className="mt-1 list-disc space-y-1 pl-5">
        {warnings.map((w, i) => (
          <li key={i} className="break-words" data-kind={w.kind}>
            {w.file ? (
              <>
                <Link href={`${fileHref(w.file)}#L${w.line ?? 1}`} className={`${linkClass} font-mono text-xs`}>
                  {w.file}
                  {w.line ? `:${w.line}` : ""}
                </Link>{" "}
              </>
            ) : null}
            {w.rule ? <strong>{SCAN_RULE_LABEL[w.rule as ScanRule] ?? w.rule}: </strong> : null}
            <span className={w.kind === "scan" ? "font-mono text-xs" : undefined}>{w.kind === "scan" ? w.message.slice(w.message.indexOf(": ") + 2) : w.message}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function SkillFilesPanel({ skill, view, fileHref, closeHref }: { skill: Skill; view: SkillFileView | null | undefined; fileHref: (path: string) => string; closeHref: string }) {
  const total = skill.files.reduce((a, f) => a + f.size, 0);
  return (
    <div>
      <h3 className={sectionTitle}>
        Files of {skill.imported_folder?.name ?? skill.name}/ ({skill.files.length}, {size(total)})
      </h3>
      <ul className="space-y-1 text-sm" aria-label="Skill files">
        {skill.files.map((f) => (
          <li key={f.path} className="flex flex-wrap items-baseline gap-x-2">
            {f.text ? (
              <Link href={fileHref(f.path)} className={`${linkClass} font-mono text-xs break-all`} aria-current={view?.path === f.path ? "true" : undefined}>
                {f.path}
              </Link>
            ) : (
              <span className="font-mono text-xs break-all">{f.path}</span>
            )}
            {f.script ? <Badge tone="red">script</Badge> : null}
            {f.executable ? <Badge tone="amber">executable</Badge> : null}
            {f.text ? null : <Badge tone="gray">binary</Badge>}
            <span className="text-xs text-slate-500 tabular-nums">{size(f.size)}</span>
            <code className="text-xs text-slate-500" title={`sha256 ${f.sha256}`}>
              sha256 {shortHash(f.sha256)}…
            </code>
          </li>
        ))}
      </ul>
      {view === null ? <p className="mt-2 text-sm text-slate-500">This skill has no such file.</p> : null}
      {view ? <FileViewer view={view} closeHref={closeHref} /> : null}
    </div>
  );
}

function FileViewer({ view, closeHref }: { view: SkillFileView; closeHref: string }) {
  const flagged = new Map(view.findings.filter((f) => f.line).map((f) => [f.line!, f]));
  const lines = view.text?.split("\n") ?? [];
  return (
    <figure className="mt-3 rounded-md border border-slate-200 dark:border-slate-800" aria-label={`File ${view.path}`}>
      <figcaption className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-3 py-2 text-xs dark:border-slate-800">
        <span className="font-mono font-medium break-all">{view.path}</span>
        {view.script ? <Badge tone="red">script</Badge> : null}
        <code title={view.sha256}>sha256 {shortHash(view.sha256)}…</code>
        <CopyButton value={view.sha256} label="Copy sha256" />
        <Link href={closeHref} className={`${linkClass} ml-auto`}>
          Close
        </Link>
      </figcaption>
      {view.text === null ? (
        <p className="px-3 py-2 text-sm text-slate-600">Binary file: listed with its size and hash, not shown.</p>
      ) : (
        <pre role="region" aria-label="File text" tabIndex={0} className="max-h-[32rem] overflow-auto px-0 py-2 text-xs leading-5 focus-visible:outline-2 focus-visible:outline-indigo-500" data-testid="skill-file-text">
          {lines.map((l, i) => {
            const finding = flagged.get(i + 1);
            return (
              <div key={i} id={`L${i + 1}`} className={finding ? "bg-amber-100 dark:bg-amber-950" : undefined} title={finding?.message}>
                <span className="inline-block w-12 pr-3 text-right text-slate-500 select-none dark:text-slate-400">{i + 1}</span>
                {l}
              </div>
            );
          })}
        </pre>
      )}
      {view.truncated ? <p className="px-3 py-2 text-xs text-slate-500">Only the first 200,000 characters are shown.</p> : null}
    </figure>
  );
}
