"use client";
// "Distill now" and "Run promotion cycle". Audited decisions, not optimistic: the button
// shows progress while the distiller works, then the server's report appears in place and
// the server-rendered page refreshes; a refusal shows the server's own message.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { distillClass, runPromotionCycle } from "@/lib/actions/learning";
import { unwrap } from "@/lib/actions/client";
import { createdSkillsSentence } from "@/lib/learning/review/vocabulary";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { useToast } from "../ui/toast";
import { ReportCard } from "./report-card";

type Target = { kind: "distill"; agentId: string; hash: string; userId: string | null } | { kind: "cycle"; agentId: string };

function useLearningAction(target: Target) {
  const router = useRouter();
  const toast = useToast();
  const [refreshing, startRefresh] = useTransition();
  const mutation = useMutation({
    mutationFn: () =>
      unwrap(
        target.kind === "distill"
          ? distillClass({ agent_id: target.agentId, canonical_hash: target.hash, user_id: target.userId })
          : runPromotionCycle({ agent_id: target.agentId }),
      ),
    onSuccess: (r) => {
      toast.success(`${createdSkillsSentence(r.report.promoted.map((id) => r.skills[id]?.status ?? "new"))}; see the report.`);
      startRefresh(() => router.refresh());
    },
    onError: (e) => toast.error(e.message),
  });
  return { mutation, refreshing };
}

/**
 * "Run promotion cycle" behind a confirmation: a cycle creates skills, so one stray click or
 * Enter must not run it, and the button stays disabled while one runs (no double submission).
 */
function CycleTrigger({ agentId, mutation, size = "md", disabled }: { agentId: string; mutation: ReturnType<typeof useLearningAction>["mutation"]; size?: "sm" | "md"; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size={size} variant="secondary" pending={mutation.isPending} disabled={disabled || mutation.isPending} onClick={() => setOpen(true)} aria-label={`Run promotion cycle for ${agentId}`}>
        Run promotion cycle
      </Button>
      {open ? (
        <ConfirmDialog
          open
          title={`Run a promotion cycle for ${agentId}?`}
          description={<p>Every class that passes the gates is distilled (up to the agent&apos;s limit per cycle) and new skills are created for review. The cycle is audited.</p>}
          confirmLabel="Run promotion cycle"
          reasonLabel={null}
          pending={mutation.isPending}
          onConfirm={() => {
            setOpen(false);
            if (!mutation.isPending) mutation.mutate();
          }}
          onCancel={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}

const PROGRESS = {
  distill: "Distilling: writing the SKILL.md from the class's runs and validating it…",
  cycle: "Running the promotion cycle: gates, distillation and validation…",
};

function Progress({ kind }: { kind: Target["kind"] }) {
  return (
    <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
      {PROGRESS[kind]}
    </p>
  );
}

function Failure({ message }: { message: string }) {
  return (
    <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm break-words text-red-800 dark:bg-red-950 dark:text-red-200">
      {message}
    </p>
  );
}

/**
 * The detail panel's actions. It stays mounted while the class changes status (the parent
 * keys it by class), so the report of a distillation stays visible after the refresh that
 * removes the Distill button.
 */
export function ClassActions({ agentId, hash, userId, eligible }: { agentId: string; hash: string; userId: string | null; eligible: boolean }) {
  const distill = useLearningAction({ kind: "distill", agentId, hash, userId });
  const cycle = useLearningAction({ kind: "cycle", agentId });
  const busy = distill.mutation.isPending || cycle.mutation.isPending;
  const last = [distill, cycle].filter((a) => a.mutation.data).sort((a, b) => b.mutation.submittedAt - a.mutation.submittedAt)[0];
  return (
    <div className="min-w-0 space-y-3">
      <div className="flex flex-wrap gap-2">
        {eligible ? (
          <Button pending={distill.mutation.isPending} disabled={busy} onClick={() => distill.mutation.mutate()}>
            Distill now
          </Button>
        ) : null}
        <CycleTrigger agentId={agentId} mutation={cycle.mutation} disabled={busy} />
      </div>
      {distill.mutation.isPending ? <Progress kind="distill" /> : null}
      {cycle.mutation.isPending ? <Progress kind="cycle" /> : null}
      {distill.mutation.isError ? <Failure message={distill.mutation.error.message} /> : null}
      {cycle.mutation.isError ? <Failure message={cycle.mutation.error.message} /> : null}
      {last?.mutation.data ? (
        <div aria-busy={last.refreshing || undefined}>
          <ReportCard data={last.mutation.data} />
        </div>
      ) : null}
    </div>
  );
}

/** A compact cycle button (page header, agents roll-up); the report lands in the reports list. */
export function CycleButton({ agentId, size = "md" }: { agentId: string; size?: "sm" | "md" }) {
  const { mutation } = useLearningAction({ kind: "cycle", agentId });
  return (
    <span className="inline-flex flex-col items-start gap-1">
      <CycleTrigger agentId={agentId} mutation={mutation} size={size} />
      {mutation.isPending ? <span role="status" className="text-xs text-slate-500">Running…</span> : null}
      {mutation.isError ? <span role="alert" className="max-w-xs text-xs break-words text-red-700 dark:text-red-300">{mutation.error.message}</span> : null}
    </span>
  );
}
