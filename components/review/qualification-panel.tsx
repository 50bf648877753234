"use client";
// The skill page's "Qualification" section (admins): a shadow skill's SKILL.md proposed to the
// evidence ledger for paired evaluation (skill vs. baseline on the same held-out cases), and,
// once proposed, the procedure's state. Starting it changes no skill status; activation stays
// an explicit decision. Not optimistic: pending, then the server's answer.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { startQualification } from "@/lib/actions/skills";
import { unwrap } from "@/lib/actions/client";
import type { SkillQualificationSummary } from "@/lib/ledger/skills";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { useToast } from "../ui/toast";
import { QualificationLine } from "./qualification-line";
import { sectionTitle } from "./styles";

type Props = {
  skillId: string;
  label: string;
  status: string;
  qualification: SkillQualificationSummary | null;
  canAct: boolean;
};

export function QualificationPanel({ skillId, label, status, qualification, canAct }: Props) {
  const router = useRouter();
  const toast = useToast();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [model, setModel] = useState("");
  const [refreshing, startRefresh] = useTransition();
  const start = useMutation({
    mutationFn: (reason: string) => unwrap(startQualification({ skill_id: skillId, model: model.trim(), reason })),
    onSuccess: () => {
      toast.success(`Paired-evaluation qualification of ${label} started.`);
      setOpen(false);
      startRefresh(() => router.refresh());
    },
    onError: (e) => toast.error(e.message),
  });
  if (!qualification && status !== "shadow") return null;

  return (
    <div>
      <h3 className={sectionTitle}>Qualification</h3>
      {qualification ? (
        <QualificationLine q={qualification} />
      ) : (
        <>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Not started. Paired evaluation runs the agent with and without this skill on the same held-out cases and records the results in the evidence ledger; the ledger qualifies the skill when the lower bound of its mean improvement clears the agent&apos;s threshold.
          </p>
          {canAct ? (
            <Button className="mt-2" variant="secondary" onClick={() => setOpen(true)} disabled={start.isPending || refreshing}>
              Start paired-evaluation qualification
            </Button>
          ) : null}
        </>
      )}
      {open ? (
        <ConfirmDialog
          open
          title={`Start paired-evaluation qualification of ${label}`}
          description={
            <div className="space-y-2">
              <p>
                The SKILL.md is proposed to the evidence ledger as an immutable procedure, scoped to this deployment, the agent and a fingerprint of its toolbox and model, with the baseline and policy of the agent&apos;s learning settings. Evaluators then record paired results through the ledger API.
              </p>
              <p>The skill stays in shadow: activation remains your separate decision.</p>
              <label htmlFor={`${id}-model`} className="block font-medium text-slate-900 dark:text-slate-100">
                Model the agent runs on
                <input
                  id={`${id}-model`}
                  required
                  value={model}
                  onChange={(e) => setModel(e.target.value)}
                  placeholder="e.g. gpt-4o-2024-08-06"
                  spellCheck={false}
                  className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm font-normal focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-700 dark:bg-slate-950"
                />
              </label>
            </div>
          }
          confirmLabel="Start qualification"
          pending={start.isPending}
          onConfirm={(reason) => start.mutate(reason)}
          onCancel={() => setOpen(false)}
        />
      ) : null}
    </div>
  );
}
