"use client";
// The agent's skills in and out in the Agent Skills format: "Export skills (zip)" downloads the
// skills of the status shown (active by default) through the agent API with the console session;
// "Import skills" (admins) sends a zip of skill folders or one SKILL.md to the same API and
// reports what became of each folder, with the scripts and review warnings to read before
// activating. Imported skills land in shadow for review.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useRef, useTransition } from "react";
import type { ImportSkillsResult } from "@/lib/learning/operations/import-skills";
import { SKILL_STATUSES } from "@/lib/learning/review/skill-query";
import { Button, buttonClasses } from "../ui/button";
import { useToast } from "../ui/toast";

type Props = { agentId: string; status: string; canImport: boolean };

const skillsPath = (agentId: string) => `/api/v1/agents/${encodeURIComponent(agentId)}/skills`;
const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

async function upload(agentId: string, file: File): Promise<ImportSkillsResult> {
  const type = /\.zip$/i.test(file.name) ? "application/zip" : "text/markdown";
  const res = await fetch(`${skillsPath(agentId)}/import`, { method: "POST", headers: { "content-type": type }, body: file });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error(body?.detail ?? `The import failed (HTTP ${res.status}).`);
  return body as ImportSkillsResult;
}

export function SkillsTransfer({ agentId, status, canImport }: Props) {
  const router = useRouter();
  const toast = useToast();
  const input = useRef<HTMLInputElement>(null);
  const [refreshing, startRefresh] = useTransition();
  const exportStatus = (SKILL_STATUSES as readonly string[]).includes(status) ? status : "active";
  const importing = useMutation({
    mutationFn: (file: File) => upload(agentId, file),
    onSuccess: (r) => {
      const scripts = r.created.filter((c) => c.scripts.length).length;
      const warnings = r.created.reduce((n, c) => n + c.warnings.length, 0);
      const review = [scripts ? `${scripts} bundling scripts` : "", warnings ? plural(warnings, "review warning") : ""].filter(Boolean).join(", ");
      const summary = `${plural(r.created.length, "skill")} imported as shadow${review ? ` (${review}: see each skill before activating)` : ""}, ${r.duplicates.length} already present, ${r.refused.length} refused.`;
      if (r.refused.length) toast.error(`${summary} ${r.refused.map((f) => `${f.file}: ${f.reasons.join("; ")}`).join(" — ")}`);
      else toast.success(summary);
      startRefresh(() => router.refresh());
    },
    onError: (e) => toast.error(e.message),
  });
  return (
    <div className="flex flex-wrap items-center gap-2">
      <a href={`${skillsPath(agentId)}/export?status=${exportStatus}`} download className={buttonClasses("secondary")}>
        Export skills (zip)
      </a>
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
