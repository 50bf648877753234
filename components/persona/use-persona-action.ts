"use client";
// Posts one persona action and reloads the server-rendered state. Not optimistic: audited
// decisions show "Saving…" and then the server's answer; a refusal shows the server's detail.
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";

export type ActionName = "reflect" | "approve" | "dismiss" | "pause" | "schedule" | "undo";

export const NO_NEW_EVIDENCE = "No new evidence since the last review. Your approach is unchanged; no model call was made.";

export function usePersonaAction(target: { userId: string; revision: number; proposalId: string | null }) {
  const router = useRouter();
  const [running, setRunning] = useState<ActionName | null>(null);
  const [refreshing, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function run(action: ActionName, extra: { paused?: boolean; daily_enabled?: boolean } = {}) {
    if (running || refreshing) return;
    setRunning(action);
    setError(null);
    setNotice(null);
    const body = {
      user_id: target.userId,
      action,
      ...(action === "reflect" ? {} : { revision: target.revision }),
      ...(action === "approve" || action === "dismiss" ? { proposal_id: target.proposalId ?? "" } : {}),
      ...extra,
    };
    try {
      const res = await fetch("/persona-evolution/action", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const result = (await res.json().catch(() => null)) as { detail?: string; notice?: string } | null;
      if (!res.ok) {
        setError(result?.detail ?? "Persona action failed. Reload and try again.");
        setRunning(null);
        return;
      }
      if (result?.notice === "no_new_evidence") {
        setNotice(NO_NEW_EVIDENCE);
        setRunning(null);
        return;
      }
      startTransition(() => {
        router.refresh();
        setRunning(null);
      });
    } catch {
      setError("Persona action failed. Check the connection and reload before retrying.");
      setRunning(null);
    }
  }

  return { run, running, busy: running !== null || refreshing, error, notice };
}
