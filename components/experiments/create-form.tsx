"use client";
// The create form: name, model label, repetitions, the arms as editable rows (the seed's three
// by default) and the held-out cases pasted as JSON Lines or YAML. A refusal keeps what was
// typed and shows the server's message; success opens the report page.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { createExperiment } from "@/lib/actions/experiments";
import { unwrap } from "@/lib/actions/client";
import { parseCases } from "@/lib/experiments/case-text";
import { ARM_MODES, type Arm } from "@/lib/experiments/scoring";
import { DEFAULT_ARMS } from "@/lib/experiments/schemas";
import { Button } from "../ui/button";
import { useToast } from "../ui/toast";
import { fieldClass, labelClass } from "../settings/form-styles";

const EXAMPLE = `- request: Refund order 1042, it arrived broken
  expected_path: [lookup_order, issue_refund]
  expected_answer: Refund issued for order 1042
  answer_match: normalized`;

export function CreateExperimentForm({ agentId, skillId, skillLabel }: { agentId: string; skillId: string; skillLabel: string }) {
  const router = useRouter();
  const toast = useToast();
  const [name, setName] = useState(`Measure ${skillLabel}`);
  const [model, setModel] = useState("");
  const [repetitions, setRepetitions] = useState(1);
  const [arms, setArms] = useState<Arm[]>(DEFAULT_ARMS);
  const [casesText, setCasesText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (cases: Record<string, unknown>[]) =>
      unwrap(createExperiment({ agent_id: agentId, skill_id: skillId, name, model, repetitions, arms: arms.map((a) => (a.mode === "raw_workflows" ? a : { name: a.name, mode: a.mode })), cases } as Parameters<typeof createExperiment>[0])),
    onSuccess: (e) => {
      toast.success(`Experiment ${e.name} created: ${e.progress.expected} runs for the agent to report.`);
      router.push(`/experiments/${encodeURIComponent(e.experiment_id)}`);
    },
    onError: (e) => setProblem(e.message),
  });
  const setArm = (i: number, change: Partial<Arm>) => setArms(arms.map((a, j) => (j === i ? { ...a, ...change } : a)));

  return (
    <form
      className="max-w-4xl space-y-5"
      onSubmit={(ev) => {
        ev.preventDefault();
        const parsed = parseCases(casesText);
        if (!parsed.ok) return setProblem(parsed.message);
        setProblem(null);
        create.mutate(parsed.cases);
      }}
    >
      <div className="grid gap-4 sm:grid-cols-3">
        <label className={`${labelClass} sm:col-span-3`}>
          Name
          <input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} className={fieldClass} />
        </label>
        <label className={labelClass}>
          Model label
          <input required value={model} onChange={(e) => setModel(e.target.value)} placeholder="gpt-4.1-mini" className={fieldClass} />
        </label>
        <label className={labelClass}>
          Repetitions
          <input type="number" min={1} max={20} required value={repetitions} onChange={(e) => setRepetitions(Number(e.target.value))} className={fieldClass} />
        </label>
      </div>

      <fieldset className="space-y-2">
        <legend className={labelClass}>Arms (the first raw-workflow arm is the baseline)</legend>
        <table className="w-full text-sm">
          <thead className="text-left text-xs text-slate-500">
            <tr>
              <th className="py-1 pr-2 font-medium">Name</th>
              <th className="py-1 pr-2 font-medium">Context</th>
              <th className="py-1 pr-2 font-medium">Raw workflows</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {arms.map((a, i) => (
              <tr key={i}>
                <td className="pr-2">
                  <input aria-label={`Arm ${i + 1} name`} required value={a.name} onChange={(e) => setArm(i, { name: e.target.value })} className={fieldClass} />
                </td>
                <td className="pr-2">
                  <select aria-label={`Arm ${i + 1} context`} value={a.mode} onChange={(e) => setArm(i, { mode: e.target.value as Arm["mode"], n: e.target.value === "raw_workflows" ? 3 : undefined })} className={fieldClass}>
                    {ARM_MODES.map((m) => <option key={m} value={m}>{m}</option>)}
                  </select>
                </td>
                <td className="pr-2">
                  {a.mode === "raw_workflows" ? (
                    <input aria-label={`Arm ${i + 1} raw workflows`} type="number" min={1} max={20} value={a.n ?? 3} onChange={(e) => setArm(i, { n: Number(e.target.value) })} className={fieldClass} />
                  ) : null}
                </td>
                <td>
                  <Button variant="ghost" size="sm" onClick={() => setArms(arms.filter((_, j) => j !== i))} disabled={arms.length <= 2}>
                    Remove
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="flex gap-2">
          <Button variant="secondary" size="sm" onClick={() => setArms([...arms, { name: `arm_${arms.length + 1}`, mode: "none" }])} disabled={arms.length >= 8}>
            Add arm
          </Button>
          <Button variant="ghost" size="sm" onClick={() => setArms(DEFAULT_ARMS)}>
            Reset to the seed&apos;s three arms
          </Button>
        </div>
      </fieldset>

      <label className={labelClass}>
        Held-out cases: JSON Lines (one object a line) or a YAML list. Each has a request, an expected_path (tool names), an expected_answer or both; optional case_id, answer_match (exact, normalized, regex) and user_id.
        <textarea required rows={10} value={casesText} onChange={(e) => setCasesText(e.target.value)} placeholder={EXAMPLE} className={`${fieldClass} font-mono`} />
      </label>

      {problem ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-900 dark:bg-red-950 dark:text-red-200">
          {problem}
        </p>
      ) : null}
      <Button type="submit" pending={create.isPending}>
        Create experiment
      </Button>
    </form>
  );
}
