"use client";
// "Forget this account" (admins): a confirmation with a required reason, then the server's
// answer. Not optimistic; the page reloads to show what is left (nothing of the persona).
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { forgetAccount } from "@/lib/actions/accounts";
import { unwrap } from "@/lib/actions/client";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { useToast } from "../ui/toast";
import { pluralise } from "@/lib/text/format";

export function ForgetAccountButton({ userId, disabled }: { userId: string; disabled?: boolean }) {
  const router = useRouter();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [refreshing, startRefresh] = useTransition();
  const forget = useMutation({
    mutationFn: (reason: string) => unwrap(forgetAccount({ user_id: userId, reason })),
    onSuccess: (r) => {
      setOpen(false);
      toast.success(`Account forgotten: ${pluralise(r.runs_forgotten, "run")} stripped, ${pluralise(r.messages_deleted, "message")} deleted.`);
      startRefresh(() => router.refresh());
    },
    onError: (e) => toast.error(e.message),
  });
  return (
    <>
      <Button variant="danger" size="sm" disabled={disabled} onClick={() => setOpen(true)}>
        Forget this account
      </Button>
      <ConfirmDialog
        open={open}
        title={`Forget account ${userId}?`}
        description={
          <>
            Deletes its conversation messages and its persona (every version, suggestion and reflection), and removes the query, steps and
            answer of its runs. Run outcomes, times and trajectory hashes stay, so class statistics and skills stay correct. This cannot be
            undone.
          </>
        }
        confirmLabel="Forget account"
        danger
        pending={forget.isPending || refreshing}
        onConfirm={(reason) => forget.mutate(reason)}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}
