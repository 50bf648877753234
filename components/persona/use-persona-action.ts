"use client";
// One persona action as a TanStack Query mutation through the console's server action (the same
// operations and body rules as the published POST /persona-evolution/action). Not optimistic:
// the button shows "Saving…" (or "Reviewing memories…") until the server answers and the
// server-rendered state is reloaded; a refusal shows the server's detail.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { runPersonaAction } from "@/lib/actions/persona";
import { unwrap } from "@/lib/actions/client";
import type { ActionName } from "@/lib/persona/action-body";
import type { PersonaState } from "@/lib/persona/types";

export const NO_NEW_EVIDENCE = "No new evidence since the last review. Your approach is unchanged; no model call was made.";

type Settings = { paused?: boolean; daily_enabled?: boolean; reason?: string };
type Target = { userId: string; revision: number; proposalId: string | null };

/** The body the contract expects: the revision the operator saw, and the proposal it decides. */
function actionBody(target: Target, action: ActionName, settings: Settings) {
  return {
    user_id: target.userId,
    action,
    ...(action === "reflect" ? {} : { revision: target.revision }),
    ...(action === "approve" || action === "dismiss" ? { proposal_id: target.proposalId ?? "" } : {}),
    ...settings,
  };
}

/** `onDone`: after the server accepted an action (the decisions' toast and dialog close). */
export function usePersonaAction(target: Target, onDone?: (action: ActionName) => void) {
  const router = useRouter();
  const [refreshing, startTransition] = useTransition();
  const mutation = useMutation({
    mutationFn: ({ action, settings }: { action: ActionName; settings: Settings }) =>
      unwrap<PersonaState>(runPersonaAction(actionBody(target, action, settings))),
    onSuccess: (state, { action }) => {
      onDone?.(action);
      if (state.notice !== "no_new_evidence") startTransition(() => router.refresh());
    },
  });
  const busy = mutation.isPending || refreshing;

  function run(action: ActionName, settings: Settings = {}) {
    if (!busy) mutation.mutate({ action, settings });
  }

  return {
    run,
    running: busy ? (mutation.variables?.action ?? null) : null,
    busy,
    error: mutation.error?.message ?? null,
    notice: mutation.data?.notice === "no_new_evidence" ? NO_NEW_EVIDENCE : null,
  };
}
