"use client";
// Activate (as user, or as developer when the agent requires shadow review), Reject (shadow or
// candidate) and Demote (active). Each
// asks for a reason in a confirm dialog that explains the authority and warns when shadow
// readiness is not met; activating an imported skill that bundles scripts lists them and needs a
// ticked confirmation, sent as confirm_scripts. Not optimistic: pending, then the server's answer;
// a refusal keeps the dialog and the typed reason, and shows the server's message.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { activateSkill, demoteSkill, rejectSkill } from "@/lib/actions/skills";
import { unwrap } from "@/lib/actions/client";
import type { Readiness } from "@/lib/learning/shadow/readiness";
import type { SkillQualificationSummary } from "@/lib/ledger/skills";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { useToast } from "../ui/toast";
import { ReadyNote } from "./shadow-panel";
import { QualificationLine } from "./qualification-line";

type Role = "user" | "developer";
type Decision = { kind: "activate"; role: Role } | { kind: "demote" } | { kind: "reject" };

/** The reason field's words: a reviewer's reason is for people, never for the agent or a distiller. */
export const REASON_NOT_FOR_AGENT = "Reason (recorded in the audit log, not shown to the agent)";

const DONE: Record<Decision["kind"], string> = { activate: "is active", demote: "was demoted", reject: "was rejected" };

export const AUTHORITY_MEANING: Record<Role, string> = {
  user: "User authority: the skill is added to the user's turn as reference material. The model may weigh it against other context.",
  developer:
    "Developer authority: the skill is injected as a developer (system-level) instruction that outranks the user's message. Reserved for procedures reviewed in shadow.",
};

type Props = {
  skillId: string;
  label: string;
  status: string;
  requireShadow: boolean;
  readiness: Readiness | null;
  shadowEvaluationEnabled: boolean;
  /** The skill's paired-evaluation qualification in the evidence ledger, when one was started. */
  qualification?: SkillQualificationSummary | null;
  /** The agent requires qualification and the skill's procedure is not ACTIVE: why activation is refused. */
  activationBlocker?: string | null;
  /** An imported skill's script files: activation lists them and needs the reviewer to confirm having read them. */
  scripts?: string[];
};

export function SkillActions({ skillId, label, status, requireShadow, readiness, shadowEvaluationEnabled, qualification, activationBlocker, scripts = [] }: Props) {
  const router = useRouter();
  const toast = useToast();
  const [open, setOpen] = useState<Decision | null>(null);
  const [scriptsRead, setScriptsRead] = useState(false);
  const [refreshing, startRefresh] = useTransition();
  const decide = useMutation({
    mutationFn: ({ d, reason }: { d: Decision; reason: string }) =>
      unwrap(
        d.kind === "activate"
          ? activateSkill({ skill_id: skillId, injection_role: d.role, reason, ...(scripts.length ? { confirm_scripts: scripts } : {}) })
          : d.kind === "reject"
            ? rejectSkill({ skill_id: skillId, reason })
            : demoteSkill({ skill_id: skillId, reason }),
      ),
    onSuccess: (_r, { d }) => {
      toast.success(d.kind === "activate" ? `${label} is active with ${d.role} authority.` : `${label} ${DONE[d.kind]}.`);
      setOpen(null);
      startRefresh(() => router.refresh());
    },
    onError: (e) => toast.error(e.message),
  });
  const canActivate = status === "shadow" || status === "candidate";
  const canDemote = status === "active";
  if (!canActivate && !canDemote) return null;
  const pending = decide.isPending || refreshing;

  const description = (d: Decision) =>
    d.kind === "demote" ? (
      <p>Demoting stops injecting this skill and releases its class&apos;s runs back to workflow retrieval. The class can be distilled again from the runs that follow.</p>
    ) : d.kind === "reject" ? (
      <p>
        Rejecting takes this skill out of review for good. Its class is distilled again only from new evidence: once as many runs as the agent&apos;s minimum executions are
        recorded after the rejection and pass every gate on their own.
      </p>
    ) : (
      <div className="space-y-2">
        {activationBlocker ? (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-900 dark:bg-red-950 dark:text-red-200">
            {activationBlocker}
          </p>
        ) : null}
        <p>{AUTHORITY_MEANING[d.role]}</p>
        {scripts.length ? (
          <div role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-900 dark:bg-red-950 dark:text-red-200">
            <p className="font-medium">
              This skill bundles {scripts.length} script file{scripts.length === 1 ? "" : "s"} an agent could run:
            </p>
            <ul className="mt-1 list-disc pl-5 font-mono text-xs">
              {scripts.map((p) => <li key={p} className="break-all">{p}</li>)}
            </ul>
            <label className="mt-2 flex items-start gap-2">
              <input type="checkbox" checked={scriptsRead} onChange={(e) => setScriptsRead(e.target.checked)} className="mt-0.5" />
              <span>I have read {scripts.length === 1 ? "this script" : `these ${scripts.length} scripts`} and accept that the agent may run {scripts.length === 1 ? "it" : "them"}.</span>
            </label>
          </div>
        ) : null}
        <p>Activation starts injection for matching queries and suppresses the source class&apos;s runs from workflow retrieval.</p>
        {readiness && !readiness.ready ? (
          <div role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-amber-900 dark:bg-amber-950 dark:text-amber-200">
            <p className="font-medium">Shadow readiness is not met{shadowEvaluationEnabled ? "" : " (passive evaluation is off for this agent)"}:</p>
            <ul className="mt-1 list-disc pl-5">
              {readiness.reasons.map((r) => <li key={r}>{r}</li>)}
            </ul>
            <p className="mt-1">Readiness is advisory; your review decides.</p>
          </div>
        ) : null}
        {readiness?.ready ? <ReadyNote readiness={readiness} /> : null}
        {qualification ? (
          <div className="rounded-md border border-slate-200 px-3 py-2 dark:border-slate-700">
            <p className="mb-1 font-medium">Paired-evaluation qualification</p>
            <QualificationLine q={qualification} />
          </div>
        ) : null}
      </div>
    );

  return (
    <>
      <div className="flex flex-wrap gap-2">
        {canActivate ? (
          <Button variant="primary" onClick={() => { setScriptsRead(false); setOpen({ kind: "activate", role: "user" }); }} disabled={pending}>
            Activate as user
          </Button>
        ) : null}
        {canActivate && requireShadow ? (
          <Button variant="primary" onClick={() => { setScriptsRead(false); setOpen({ kind: "activate", role: "developer" }); }} disabled={pending}>
            Activate as developer
          </Button>
        ) : null}
        {canActivate ? (
          <Button variant="danger" onClick={() => setOpen({ kind: "reject" })} disabled={pending}>
            Reject
          </Button>
        ) : null}
        {canDemote ? (
          <Button variant="danger" onClick={() => setOpen({ kind: "demote" })} disabled={pending}>
            Demote
          </Button>
        ) : null}
      </div>
      {open ? (
        <ConfirmDialog
          open
          title={open.kind === "activate" ? `Activate ${label} as ${open.role}` : open.kind === "reject" ? `Reject ${label}` : `Demote ${label}`}
          description={description(open)}
          confirmLabel={open.kind === "activate" ? `Activate as ${open.role}` : open.kind === "reject" ? "Reject" : "Demote"}
          reasonLabel={REASON_NOT_FOR_AGENT}
          danger={open.kind !== "activate"}
          pending={decide.isPending}
          blocked={open.kind === "activate" && (!!activationBlocker || (scripts.length > 0 && !scriptsRead))}
          onConfirm={(reason) => decide.mutate({ d: open, reason })}
          onCancel={() => setOpen(null)}
        />
      ) : null}
    </>
  );
}
