"use client";
// The agent's skills in and out in the Agent Skills format: "Export" downloads the skills of one
// status through the agent API with the console session, saying which and how many (the page's
// status filter, else active, else shadow; a picker offers every status that has skills, so a
// page of shadow skills never exports an empty zip by default);
// "Import skills" (admins) sends a zip of skill folders or one SKILL.md to the same API and
// reports what became of each folder, with the scripts and review warnings to read before
// activating. Imported skills land in shadow for review.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useRef, useState, useTransition } from "react";
import type { ImportSkillsResult } from "@/lib/learning/operations/import-skills";
import { SKILL_STATUSES } from "@/lib/learning/review/skill-query";
import { pluralise } from "@/lib/text/format";
import { Button, buttonClasses } from "../ui/button";
import { useToast } from "../ui/toast";

/** `status`: the page's status filter (null: none); `counts`: the agent's skills per status. */
type Props = { agentId: string; status: string | null; counts: Record<string, number>; canImport: boolean };

const skillsPath = (agentId: string) => `/api/v1/agents/${encodeURIComponent(agentId)}/skills`;

async function upload(agentId: string, file: File): Promise<ImportSkillsResult> {
  const type = /\.zip$/i.test(file.name) ? "application/zip" : "text/markdown";
  const res = await fetch(`${skillsPath(agentId)}/import`, { method: "POST", headers: { "content-type": type }, body: file });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error(body?.detail ?? `The import failed (HTTP ${res.status}).`);
  return body as ImportSkillsResult;
}

function defaultExport(status: string | null, counts: Record<string, number>): string {
  if (status && (SKILL_STATUSES as readonly string[]).includes(status)) return status;
  return ["active", "shadow", ...SKILL_STATUSES].find((s) => (counts[s] ?? 0) > 0) ?? "active";
}

export function SkillsTransfer({ agentId, status, counts, canImport }: Props) {
  const router = useRouter();
  const toast = useToast();
  const input = useRef<HTMLInputElement>(null);
  const [refreshing, startRefresh] = useTransition();
  const [exportStatus, setExportStatus] = useState(() => defaultExport(status, counts));
  const exportCount = counts[exportStatus] ?? 0;
  const offered = SKILL_STATUSES.filter((s) => (counts[s] ?? 0) > 0 || s === exportStatus);
  const importing = useMutation({
    mutationFn: (file: File) => upload(agentId, file),
    onSuccess: (r) => {
      const scripts = r.created.filter((c) => c.scripts.length).length;
      const warnings = r.created.reduce((n, c) => n + c.warnings.length, 0);
      const review = [scripts ? `${scripts} bundling scripts` : "", warnings ? pluralise(warnings, "review warning") : ""].filter(Boolean).join(", ");
      const summary = `${pluralise(r.created.length, "skill")} imported as shadow${review ? ` (${review}: see each skill before activating)` : ""}, ${r.duplicates.length} already present, ${r.refused.length} refused.`;
      if (r.refused.length) toast.error(`${summary} ${r.refused.map((f) => `${f.file}: ${f.reasons.join("; ")}`).join(" — ")}`);
      else toast.success(summary);
      startRefresh(() => router.refresh());
    },
    onError: (e) => toast.error(e.message),
  });
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label className="flex items-center gap-1 text-sm">
        <span className="sr-only">Skills to export</span>
        <select value={exportStatus} onChange={(e) => setExportStatus(e.target.value)} className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-950">
          {offered.map((s) => (
            <option key={s} value={s}>
              {s} ({(counts[s] ?? 0).toLocaleString("en")})
            </option>
          ))}
        </select>
      </label>
      {exportCount > 0 ? (
        <a href={`${skillsPath(agentId)}/export?status=${exportStatus}`} download className={buttonClasses("secondary")}>
          Export {pluralise(exportCount, `${exportStatus} skill`)} (zip)
        </a>
      ) : (
        <Button variant="secondary" disabled title={`This agent has no ${exportStatus} skills: pick another status.`}>
          No {exportStatus} skills to export
        </Button>
      )}
      {canImport ? (
        <>
          <input
            ref={input}
            type="file"
            accept=".zip,.md,application/zip,text/markdown"
            className="sr-only"
            aria-label="Skills to import (a zip of skill folders or one SKILL.md)"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = "";
              if (file) importing.mutate(file);
            }}
          />
          <Button variant="secondary" pending={importing.isPending || refreshing} onClick={() => input.current?.click()}>
            Import skills
          </Button>
        </>
      ) : null}
    </div>
  );
}
