"use client";
// An agent's learning settings: every key, in sections, with its default, validated in the
// browser with the same zod schema the server applies again. The authority selector keeps
// developer authority tied to shadow review. Changed fields are marked and counted in a save bar
// that stays in view; leaving with unsaved changes asks first. Saving is not optimistic:
// pending, then the server's answer; a refusal keeps the form as typed and marks the fields.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useId, useMemo, useState } from "react";
import { saveLearningSettings } from "@/lib/actions/learning";
import { ActionFailure, unwrap } from "@/lib/actions/client";
import { learningConfigSchema, type LearningConfig } from "@/lib/learning/agents/config";
import { AUTHORITY_KEYS, CONFIG_FIELDS, CONFIG_GROUPS, type ConfigField } from "@/lib/learning/review/config-fields";
import { configIssueMessage, type ConfigIssue } from "@/lib/learning/review/config-errors";
import { Button } from "../ui/button";
import { useToast } from "../ui/toast";
import { AUTHORITY_MEANING } from "./skill-actions";
import { pluralise } from "@/lib/text/format";

type Draft = Record<string, string | boolean>;
type Errors = Record<string, string>;

const input =
  "mt-1 block w-full rounded-md border bg-white px-2.5 py-1.5 text-sm font-normal focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-60 dark:bg-slate-950";

function toDraft(c: LearningConfig): Draft {
  return Object.fromEntries(Object.entries(c).map(([k, v]) => [k, typeof v === "boolean" ? v : v === null ? "" : String(v)]));
}

function fromDraft(d: Draft): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(d).map(([k, v]) => {
      const f = CONFIG_FIELDS.get(k);
      if (typeof v === "boolean" || !f) return [k, v];
      if (f.kind === "text" || f.kind === "choice") return [k, v];
      if (f.kind.startsWith("nullable-") && v.trim() === "") return [k, null];
      return [k, v.trim() === "" ? Number.NaN : Number(v)];
    }),
  );
}

function issuesToErrors(issues: { path: string; message: string }[]): Errors {
  return Object.fromEntries(issues.map((i) => [i.path.replace(/^\/(learning\/)?/, "").split("/")[0] || "_form", i.message]));
}

/** Field keys in the order the form shows them. */
const CONFIG_KEYS_IN_ORDER = CONFIG_GROUPS.flatMap((g) => g.fields.map((f) => f.key as string));

const wordedErrors = (issues: ConfigIssue[]): Errors => Object.fromEntries(issues.map((i) => [String(i.path[0] ?? "_form"), configIssueMessage(i)]));

/** Asks before a page unload or an in-app link would drop `count` unsaved changes. */
function useLeaveWarning(count: number) {
  useEffect(() => {
    if (count === 0) return;
    const question = `Leave without saving? ${pluralise(count, "changed setting")} will be lost.`;
    const onUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    // Capture on the document runs before Next's Link handler (React listens on its root).
    const onClick = (e: MouseEvent) => {
      const link = (e.target as Element | null)?.closest?.("a[href]");
      if (!link || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || link.getAttribute("target") === "_blank") return;
      if (!window.confirm(question)) {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    window.addEventListener("beforeunload", onUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [count]);
}

const display = (v: unknown) => (v === null ? "empty" : String(v));

export function LearningSettingsForm({ agentId, initial, defaults, canEdit }: { agentId: string; initial: LearningConfig; defaults: LearningConfig; canEdit: boolean }) {
  const router = useRouter();
  const toast = useToast();
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => toDraft(initial));
  const [errors, setErrors] = useState<Errors>({});
  const set = (k: string, v: string | boolean) => {
    setDraft((d) => ({ ...d, [k]: v }));
    // An edited field's old complaint no longer applies; the next save checks it again.
    setErrors((e) => (k in e ? Object.fromEntries(Object.entries(e).filter(([key]) => key !== k)) : e));
  };
  /** What the server holds: the baseline changes are counted against. */
  const [saved, setSaved] = useState<Draft>(() => toDraft(initial));
  const changed = useMemo(() => new Set(Object.keys(draft).filter((k) => draft[k] !== saved[k])), [draft, saved]);
  useLeaveWarning(changed.size);

  const save = useMutation({
    mutationFn: (learning: LearningConfig) => unwrap(saveLearningSettings({ agent_id: agentId, learning })),
    onSuccess: (r) => {
      setDraft(toDraft(r.learning));
      setSaved(toDraft(r.learning));
      setErrors({});
      toast.success("Learning settings saved.");
      router.refresh();
    },
    onError: (e) => {
      if (e instanceof ActionFailure && e.error.fields?.length) setErrors(issuesToErrors(e.error.fields));
      toast.error(e.message);
    },
  });

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const parsed = learningConfigSchema.safeParse(fromDraft(draft));
    if (!parsed.success) {
      const worded = wordedErrors(parsed.error.issues as ConfigIssue[]);
      setErrors(worded);
      // The words sit next to each field; the keyboard goes to the first one (no toast over the save bar).
      const first = CONFIG_KEYS_IN_ORDER.find((k) => worded[k]);
      if (first) document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  }

  const role = draft.skill_injection_role === "developer" ? "developer" : "user";
  const field = (f: ConfigField) => {
    const fid = `${id}-${f.key}`;
    const err = errors[f.key];
    const common = { id: fid, disabled: !canEdit || save.isPending, "aria-invalid": err ? true : undefined, "aria-describedby": `${fid}-help${err ? ` ${fid}-err` : ""}` };
    const isChanged = changed.has(f.key);
    return (
      <div key={f.key} data-changed={isChanged || undefined} className={`min-w-0 border-l-2 pl-2 ${isChanged ? "border-amber-500" : "border-transparent"}`}>
        {f.kind === "boolean" ? (
          <label htmlFor={fid} className="flex items-center gap-2 text-sm font-medium">
            <input type="checkbox" {...common} checked={draft[f.key] === true} onChange={(e) => set(f.key, e.target.checked)} className="size-4 rounded focus-visible:outline-2 focus-visible:outline-indigo-500" />
            {f.label}
            {isChanged ? <ChangedMark /> : null}
          </label>
        ) : f.kind === "choice" ? (
          <label htmlFor={fid} className="block text-sm font-medium">
            {f.label}
            {isChanged ? <ChangedMark /> : null}
            <select {...common} value={draft[f.key] as string} onChange={(e) => set(f.key, e.target.value)} className={`${input} ${err ? "border-red-500" : "border-slate-300 dark:border-slate-700"}`}>
              {f.options?.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <label htmlFor={fid} className="block text-sm font-medium">
            {f.label}
            {isChanged ? <ChangedMark /> : null}
            <input
              {...(f.kind === "text"
                ? { type: "text", spellCheck: false }
                : { type: "number", inputMode: "decimal" as const, step: f.kind.endsWith("int") ? 1 : "any", min: 0, max: f.kind.endsWith("rate") ? 1 : undefined })}
              {...common}
              value={draft[f.key] as string}
              placeholder={f.kind.startsWith("nullable-") ? "inherit" : undefined}
              onChange={(e) => set(f.key, e.target.value)}
              className={`${input} ${err ? "border-red-500" : "border-slate-300 dark:border-slate-700"}`}
            />
          </label>
        )}
        <p id={`${fid}-help`} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {f.help} <span className="whitespace-nowrap">Default: <code>{display(defaults[f.key])}</code>.</span> <code className="text-[11px] break-all">{f.key}</code>
        </p>
        {err ? <p id={`${fid}-err`} role="alert" className="mt-1 text-xs text-red-700 dark:text-red-300">{err}</p> : null}
      </div>
    );
  };

  /** A review switch; `implies` is what turning it on also sets (the schema refuses the other combinations). */
  const toggle = (key: (typeof AUTHORITY_KEYS)[number], title: string, meaning: string, implies: Draft = {}) => (
    <div className="text-sm">
      <label className="flex items-start gap-2">
        <input
          type="checkbox"
          checked={draft[key] === true}
          onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.checked, ...(e.target.checked ? implies : {}) }))}
          className="mt-0.5 size-4 rounded focus-visible:outline-2 focus-visible:outline-indigo-500"
        />
        <span>
          <span className="font-medium">{title}</span>
          {changed.has(key) ? <ChangedMark /> : null}
          <span className="block text-xs text-slate-600 dark:text-slate-400">
            {meaning} <code className="text-[11px]">{key}</code>, default {display(defaults[key])}.
          </span>
        </span>
      </label>
      {errors[key] ? <p role="alert" className="mt-1 text-xs text-red-700 dark:text-red-300">{errors[key]}</p> : null}
    </div>
  );

  return (
    <form onSubmit={submit} aria-label="Learning settings" noValidate className="space-y-6">
      <nav aria-label="Settings sections" className="flex flex-wrap gap-x-3 gap-y-1 text-sm">
        {[{ id: "review", title: "Review and authority" }, ...CONFIG_GROUPS].map((g) => (
          <a key={g.id} href={`#settings-${g.id}`} className="text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300">
            {g.title}
          </a>
        ))}
      </nav>
      <fieldset id="settings-review" className="scroll-mt-4 space-y-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800" disabled={!canEdit || save.isPending}>
        <legend className="px-1 text-sm font-semibold">Review and authority</legend>
        <p className="text-xs text-slate-600 dark:text-slate-400">Who decides what a new skill becomes, and with which authority active skills are injected.</p>
        <div role="radiogroup" aria-label="Learned-skill authority" className="grid gap-2 sm:grid-cols-2">
          {(["user", "developer"] as const).map((r) => (
            <label key={r} className={`flex gap-2 rounded-md border p-3 text-sm ${role === r ? "border-indigo-500 bg-indigo-50 dark:bg-indigo-950/40" : "border-slate-200 dark:border-slate-800"}`}>
              <input
                type="radio"
                name={`${id}-role`}
                value={r}
                checked={role === r}
                onChange={() => setDraft((d) => ({ ...d, skill_injection_role: r, ...(r === "developer" ? { require_shadow: true, auto_activate: false } : {}) }))}
                className="mt-0.5 size-4 focus-visible:outline-2 focus-visible:outline-indigo-500"
              />
              <span>
                <span className="font-medium">{r === "user" ? "User" : "Developer"}</span>
                <span className="block text-xs text-slate-600 dark:text-slate-400">{AUTHORITY_MEANING[r]}</span>
              </span>
            </label>
          ))}
        </div>
        {errors.skill_injection_role ? <p role="alert" className="text-xs text-red-700 dark:text-red-300">{errors.skill_injection_role}</p> : null}
        {toggle("require_shadow", "Require shadow review before activation", "New skills land in shadow and wait for an admin's decision. Required for developer authority and for qualification.", { auto_activate: false })}
        {toggle(
          "auto_activate",
          "Activate new skills without review (opt-out of review)",
          "Skills distilled by a promotion cycle are injected at once, with no admin decision. Only without shadow review; otherwise new skills wait for an admin (as candidates when shadow review is off).",
          { require_shadow: false, require_qualification: false, skill_injection_role: "user" },
        )}
        {toggle(
          "require_qualification",
          "Require paired-evaluation qualification before activation",
          "A shadow skill can be activated only when its evidence-ledger procedure is active; a ledger suspension of that procedure demotes the active skill.",
          { require_shadow: true, auto_activate: false },
        )}
        {toggle("shadow_evaluation_enabled", "Passively evaluate shadow skills", "Compare new runs with shadow skills to build readiness evidence; nothing is injected.")}
      </fieldset>

      {CONFIG_GROUPS.map((g) => (
        <fieldset key={g.id} id={`settings-${g.id}`} className="scroll-mt-4 rounded-lg border border-slate-200 p-4 dark:border-slate-800">
          <legend className="px-1 text-sm font-semibold">{g.title}</legend>
          <p className="mb-3 text-xs text-slate-600 dark:text-slate-400">{g.description}</p>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">{g.fields.map(field)}</div>
        </fieldset>
      ))}

      {canEdit ? (
        <div className="sticky bottom-0 z-10 -mx-1 flex flex-wrap items-center gap-2 border-t border-slate-200 bg-white/95 px-1 py-3 backdrop-blur dark:border-slate-800 dark:bg-slate-950/95">
          <p role="status" aria-live="polite" className="mr-auto text-sm text-slate-700 dark:text-slate-300" data-testid="changed-count">
            {changed.size === 0 ? "No unsaved changes" : pluralise(changed.size, "unsaved change")}
            {Object.keys(errors).length ? <span className="ml-2 text-red-700 dark:text-red-300">· fix the marked field{Object.keys(errors).length === 1 ? "" : "s"} to save</span> : null}
          </p>
          <Button type="submit" pending={save.isPending} disabled={changed.size === 0}>
            Save settings
          </Button>
          <Button variant="secondary" disabled={save.isPending} onClick={() => setDraft(toDraft({ ...defaults }))}>
            Restore defaults
          </Button>
          <Button variant="ghost" disabled={save.isPending || changed.size === 0} onClick={() => { setDraft(saved); setErrors({}); }}>
            Discard changes
          </Button>
        </div>
      ) : null}
    </form>
  );
}

function ChangedMark() {
  return <span className="ml-1.5 rounded bg-amber-100 px-1 text-[11px] font-medium text-amber-900 dark:bg-amber-900/50 dark:text-amber-200">changed</span>;
}
