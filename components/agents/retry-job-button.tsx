"use client";
// Retry of one dead shadow evaluation job (admins). Not optimistic: pending, then the
// server's answer; the page re-reads the queue afterwards.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { retryShadowJob } from "@/lib/actions/learning";
import { unwrap } from "@/lib/actions/client";
import { Button } from "../ui/button";
import { useToast } from "../ui/toast";

export function RetryJobButton({ agentId, jobId }: { agentId: string; jobId: string }) {
  const router = useRouter();
  const toast = useToast();
  const [refreshing, startRefresh] = useTransition();
  const retry = useMutation({
    mutationFn: () => unwrap(retryShadowJob({ agent_id: agentId, job_id: jobId })),
    onSuccess: () => {
      toast.success(`Job ${jobId} is queued again.`);
      startRefresh(() => router.refresh());
    },
    onError: (e) => toast.error(e.message),
  });
  return (
    <Button variant="secondary" size="sm" pending={retry.isPending || refreshing} onClick={() => retry.mutate()}>
      Retry
    </Button>
  );
}
