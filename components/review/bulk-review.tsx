"use client";
// Bulk review of the skills list: rows checked (x, or a procedure group's box) are activated or
// rejected together with one reason (a, r, or the bar's buttons; always through a confirmation).
// With nothing checked, a and r decide the current row. Skills that bundle scripts are left out
// of bulk activation: each is activated on its own page, confirming its scripts.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { decideSkills } from "@/lib/actions/skills";
import { unwrap } from "@/lib/actions/client";
import type { SkillRowView } from "@/lib/learning/pages/skills";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { useToast } from "../ui/toast";
import { REASON_NOT_FOR_AGENT } from "./skill-actions";
import { pluralise } from "@/lib/text/format";

type Decision = "activate" | "reject";

const skills = (n: number) => pluralise(n, "skill");

export function useBulkReview(rows: SkillRowView[], current: string | null) {
  const router = useRouter();
  const toast = useToast();
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [open, setOpen] = useState<Decision | null>(null);
  const [refreshing, startRefresh] = useTransition();
  const byKey = new Map(rows.map((r) => [r.key, r]));
  // Rows leave the page once decided; a stale key is never sent.
  const picked = [...checked].map((k) => byKey.get(k)).filter((r): r is SkillRowView => !!r && r.decidable);
  const currentRow = current ? byKey.get(current) : undefined;
  const targets = (d: Decision) => {
    const base = picked.length ? picked : currentRow?.decidable ? [currentRow] : [];
    return d === "activate" ? base.filter((r) => !r.scripts) : base;
  };
  const decide = useMutation({
    mutationFn: ({ d, reason }: { d: Decision; reason: string }) => unwrap(decideSkills({ decision: d, reason, skill_ids: targets(d).map((r) => r.key) })),
    onSuccess: (r) => {
      toast.success(`${r.decision === "activate" ? "Activated" : "Rejected"} ${skills(r.skill_ids.length)}.`);
      setOpen(null);
      setChecked(new Set());
      startRefresh(() => router.refresh());
    },
    onError: (e) => toast.error(e.message),
  });
  const toggle = (keys: string[], on?: boolean) =>
    setChecked((prev) => {
      const next = new Set(prev);
      const value = on ?? !keys.every((k) => prev.has(k));
      for (const k of keys) {
        if (value) next.add(k);
        else next.delete(k);
      }
      return next;
    });
  const openIfAny = (d: Decision) => {
    if (targets(d).length) setOpen(d);
    else if (d === "activate" && (picked.length || currentRow?.scripts)) toast.error("Skills that bundle scripts are activated one at a time, on their own page.");
  };
  return {
    checked,
    toggle,
    pending: decide.isPending || refreshing,
    keys: {
      x: () => currentRow?.decidable && toggle([currentRow.key]),
      a: () => openIfAny("activate"),
      r: () => openIfAny("reject"),
    },
    bar: (
      <BulkBar
        picked={picked}
        pending={decide.isPending || refreshing}
        onDecide={openIfAny}
        onClear={() => setChecked(new Set())}
        dialog={
          open ? (
            <ConfirmDialog
              open
              title={`${open === "activate" ? "Activate" : "Reject"} ${skills(targets(open).length)}`}
              description={<DecisionSummary d={open} targets={targets(open)} left={open === "activate" ? (picked.length ? picked : [currentRow!]).filter((r) => r.scripts).length : 0} />}
              confirmLabel={`${open === "activate" ? "Activate" : "Reject"} ${skills(targets(open).length)}`}
              danger={open === "reject"}
              reasonLabel={REASON_NOT_FOR_AGENT}
              pending={decide.isPending}
              onConfirm={(reason) => decide.mutate({ d: open, reason })}
              onCancel={() => setOpen(null)}
            />
          ) : null
        }
      />
    ),
  };
}

function DecisionSummary({ d, targets, left }: { d: Decision; targets: SkillRowView[]; left: number }) {
  const procedures = new Set(targets.map((r) => r.procedure)).size;
  const accounts = new Set(targets.map((r) => r.account ?? "")).size;
  return (
    <div className="space-y-2">
      <p>
        {skills(targets.length)} of {pluralise(procedures, "procedure")} across {pluralise(accounts, "account")}, one audit event
        each, all in one decision: if one is refused, none changes.
      </p>
      {d === "activate" ? <p>Each is activated with its stored authority and starts being injected for matching queries.</p> : <p>Rejected skills leave review; their classes are distilled again only from new runs.</p>}
      {left ? <p role="note">{skills(left)} bundling scripts are left out: activate each on its own page, confirming its scripts.</p> : null}
    </div>
  );
}

function BulkBar({ picked, pending, onDecide, onClear, dialog }: { picked: SkillRowView[]; pending: boolean; onDecide: (d: Decision) => void; onClear: () => void; dialog: React.ReactNode }) {
  const activatable = picked.filter((r) => !r.scripts).length;
  return (
    <div role="region" aria-label="Bulk review" className="mb-2 flex flex-wrap items-center gap-2 text-sm">
      <span aria-live="polite" className="tabular-nums">{picked.length ? `${skills(picked.length)} selected` : "None selected"}</span>
      <Button size="sm" disabled={!activatable || pending} onClick={() => onDecide("activate")}>
        Activate selected{activatable !== picked.length ? ` (${activatable})` : ""}
      </Button>
      <Button size="sm" variant="danger" disabled={!picked.length || pending} onClick={() => onDecide("reject")}>
        Reject selected
      </Button>
      {picked.length ? (
        <Button size="sm" variant="ghost" onClick={onClear}>
          Clear
        </Button>
      ) : null}
      <span className="text-xs text-slate-600 dark:text-slate-400">
        <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>x</kbd> select · <kbd>a</kbd> activate · <kbd>r</kbd> reject
      </span>
      {dialog}
    </div>
  );
}
