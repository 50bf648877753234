"use client";
// Cancel a draft or running experiment: irreversible (it takes no more runs and records nothing
// in the ledger), so the admin confirms and says why.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { cancelExperiment } from "@/lib/actions/experiments";
import { unwrap } from "@/lib/actions/client";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { useToast } from "../ui/toast";

export function CancelExperimentButton({ experimentId, name }: { experimentId: string; name: string }) {
  const router = useRouter();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const cancel = useMutation({
    mutationFn: (reason: string) => unwrap(cancelExperiment({ experiment_id: experimentId, reason })),
    onSuccess: () => {
      toast.success(`${name} was cancelled.`);
      setOpen(false);
      router.refresh();
    },
    onError: (e) => toast.error(e.message),
  });
  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        Cancel experiment
      </Button>
      <ConfirmDialog
        open={open}
        title={`Cancel ${name}`}
        description={<p>The agent can report no more runs. The runs reported so far stay in the report; nothing is recorded in the ledger. This cannot be undone.</p>}
        confirmLabel="Cancel experiment"
        danger
        pending={cancel.isPending}
        onConfirm={(reason) => cancel.mutate(reason)}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}
