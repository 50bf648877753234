"use client";
// "Delete agent" (admins): confirmed by typing the agent's id and giving a reason. The agent is
// hidden at once and deleted by the worker in the background; the page then goes to the list.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { deleteAgent } from "@/lib/actions/learning";
import { unwrap } from "@/lib/actions/client";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { useToast } from "../ui/toast";

export function DeleteAgentButton({ agentId }: { agentId: string }) {
  const router = useRouter();
  const toast = useToast();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [includeLedger, setIncludeLedger] = useState(false);
  const remove = useMutation({
    mutationFn: (reason: string) => unwrap(deleteAgent({ agent_id: agentId, confirm_agent_id: typed, reason, include_ledger: includeLedger })),
    onSuccess: () => {
      toast.success(`Agent ${agentId} is being deleted.`);
      setOpen(false);
      router.push("/agents");
    },
    onError: (e) => toast.error(e.message),
  });
  return (
    <>
      <Button variant="danger" onClick={() => (setTyped(""), setIncludeLedger(false), setOpen(true))}>
        Delete agent
      </Button>
      <ConfirmDialog
        open={open}
        title={`Delete agent ${agentId}?`}
        danger
        confirmLabel="Delete agent"
        pending={remove.isPending}
        blocked={typed !== agentId}
        onConfirm={(reason) => remove.mutate(reason)}
        onCancel={() => setOpen(false)}
        description={
          <div className="space-y-3">
            <p>
              Its runs, classes, skills, jobs, shadow records, conversations and settings are deleted; this cannot be undone. The audit log
              keeps its rows.
            </p>
            <label htmlFor={`${id}-confirm`} className="block font-medium text-slate-900 dark:text-slate-100">
              Type <code>{agentId}</code> to confirm
            </label>
            <input
              id={`${id}-confirm`}
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              autoComplete="off"
              spellCheck={false}
              className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-700 dark:bg-slate-950"
            />
            <label className="flex items-center gap-2">
              <input type="checkbox" checked={includeLedger} onChange={(e) => setIncludeLedger(e.target.checked)} />
              Also delete the agent&apos;s ledger procedures
            </label>
          </div>
        }
      />
    </>
  );
}
