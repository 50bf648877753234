"use client";
// Retry or dismiss dead jobs (admins): one job, or every dead job of a kind and agent (an inbox
// row). Both confirm first; dismissing deletes the jobs for good, so it asks why. Not
// optimistic: pending, then the server's answer and a toast; the page re-reads afterwards.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { dismissDeadJobs, retryDeadJobs } from "@/lib/actions/jobs";
import { unwrap } from "@/lib/actions/client";
import type { DeadJobSelection } from "@/lib/jobs/schemas";
import { pluralise } from "@/lib/text/format";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { useToast } from "../ui/toast";

/** `what`: the jobs in words ("job 42", "3 otlp assembly jobs of shop"). */
export function DeadJobActions({ select, what }: { select: DeadJobSelection; what: string }) {
  const router = useRouter();
  const toast = useToast();
  const [open, setOpen] = useState<"retry" | "dismiss" | null>(null);
  const [refreshing, startRefresh] = useTransition();
  const done = (verb: string) => (r: { jobs: unknown[] }) => {
    toast.success(`${pluralise(r.jobs.length, "dead job")} ${verb}.`);
    setOpen(null);
    startRefresh(() => router.refresh());
  };
  const retry = useMutation({
    mutationFn: (reason: string) => unwrap(retryDeadJobs({ select, ...(reason ? { reason } : {}) })),
    onSuccess: done("queued again"),
    onError: (e) => toast.error(e.message),
  });
  const dismiss = useMutation({
    mutationFn: (reason: string) => unwrap(dismissDeadJobs({ select, reason })),
    onSuccess: done("dismissed"),
    onError: (e) => toast.error(e.message),
  });
  const busy = retry.isPending || dismiss.isPending || refreshing;
  return (
    <span className="flex shrink-0 gap-2">
      <Button variant="secondary" size="sm" disabled={busy} onClick={() => setOpen("retry")}>
        Retry
      </Button>
      <Button variant="secondary" size="sm" disabled={busy} onClick={() => setOpen("dismiss")}>
        Dismiss
      </Button>
      <ConfirmDialog
        open={open === "retry"}
        title={`Retry ${what}`}
        description={<p>They go back to the queue now with fresh attempts. If they fail every attempt again, they come back here.</p>}
        confirmLabel="Retry"
        reasonLabel="Note (optional, recorded in the audit log)"
        reasonRequired={false}
        pending={retry.isPending}
        onConfirm={(reason) => retry.mutate(reason)}
        onCancel={() => setOpen(null)}
      />
      <ConfirmDialog
        open={open === "dismiss"}
        title={`Dismiss ${what}`}
        description={<p>They are deleted and will never run: what they would have done (a trace becoming runs, an evaluation, a delivery) stays undone. This cannot be undone.</p>}
        confirmLabel="Dismiss"
        danger
        pending={dismiss.isPending}
        onConfirm={(reason) => dismiss.mutate(reason)}
        onCancel={() => setOpen(null)}
      />
    </span>
  );
}
