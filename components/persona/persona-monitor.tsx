"use client";
// The loaded profile: header actions, summary strip, activity timeline with its detail pane,
// state panels and the retention note. Buttons only express intent; the server checks the
// revision, pause state and role again on every action. Approve, Dismiss and Undo are decisions,
// as for skills: a confirm dialog with a reason (required for Dismiss and Undo), then a toast.
import { useEffect, useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useToast } from "@/components/ui/toast";
import { REASON_MAX, REASON_REQUIRED, type ActionName } from "@/lib/persona/action-body";
import { buildPersonaView, canUndo } from "@/lib/persona/monitor";
import { traceHref } from "@/lib/persona/links";
import type { PersonaDecisions, PersonaState } from "@/lib/persona/types";
import { ActivityTimeline } from "./activity-timeline";
import { DetailPane } from "./detail-pane";
import { StatePanels } from "./state-panels";
import { SummaryTape } from "./summary-tape";
import { usePersonaAction } from "./use-persona-action";

type Props = { state: PersonaState; decisions: PersonaDecisions; writable: boolean; readOnly: boolean };

type Decision = "approve" | "dismiss" | "undo";

const DECISION: Record<Decision, { title: string; confirm: string; done: string; description: string }> = {
  approve: {
    title: "Approve this suggestion",
    confirm: "Approve",
    done: "Suggestion approved: the new goals apply from the next turn.",
    description: "The suggested goals become the account's next persona version. You can undo it later.",
  },
  dismiss: {
    title: "Dismiss this suggestion",
    confirm: "Dismiss",
    done: "Suggestion dismissed: the goals are unchanged.",
    description: "The goals stay as they are. The dismissed suggestion and your reason stay in the activity list.",
  },
  undo: {
    title: "Undo the last change",
    confirm: "Undo change",
    done: "Change undone: the goals are back to the previous version.",
    description: "The goals go back to what they were before the last approved change, as a new version.",
  },
};

function typing(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  return !!t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName));
}

export function PersonaMonitor({ state, decisions, writable, readOnly }: Props) {
  const view = useMemo(() => buildPersonaView(state, decisions), [state, decisions]);
  const toast = useToast();
  const [asking, setAsking] = useState<Decision | null>(null);
  const [filter, setFilter] = useState<string | null>(null);
  const rows = filter ? view.rows.filter((r) => r.tags.includes(filter)) : view.rows;
  const [picked, setPicked] = useState<string | null>(null);
  const selected = rows.find((r) => r.key === picked) ?? rows[0] ?? null;
  const action = usePersonaAction({ userId: state.user_id, revision: state.revision, proposalId: state.pending?.id ?? null }, (done: ActionName) => {
    if (done in DECISION) {
      toast.success(DECISION[done as Decision].done);
      setAsking(null);
    }
  });
  const { run, busy, running } = action;

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (typing(e) || e.metaKey || e.ctrlKey || e.altKey) return;
      const at = selected ? rows.findIndex((r) => r.key === selected.key) : -1;
      if (e.key === "j" || e.key === "k") {
        const next = rows[Math.min(rows.length - 1, Math.max(0, at + (e.key === "j" ? 1 : -1)))];
        if (next) {
          setPicked(next.key);
          document.querySelector<HTMLElement>(`[data-row="${next.key}"]`)?.focus();
        }
      } else if (e.key === "t" && selected) {
        const trace = traceOf(state, selected.source);
        if (trace) window.location.assign(trace);
      } else if (e.key === "/") {
        e.preventDefault();
        document.getElementById("pe-account")?.focus();
      }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [rows, selected, state]);

  return (
    <div id="pe-state" className="min-w-0 space-y-6">
      <div className="flex flex-wrap items-center gap-2">
        <Button onClick={() => run("reflect")} disabled={!writable || state.paused || !!state.pending || state.review_state === "reviewing" || busy} pending={running === "reflect"}>
          {running === "reflect" ? "Reviewing memories…" : "Reflect now"}
        </Button>
        <Button variant="secondary" onClick={() => run("pause", { paused: !state.paused })} disabled={!writable || busy} pending={running === "pause"}>
          {running === "pause" ? "Saving…" : state.paused ? "Resume reflection" : "Pause reflection"}
        </Button>
        {canUndo(state) ? (
          <Button variant="secondary" onClick={() => setAsking("undo")} disabled={!writable || busy} pending={running === "undo"}>
            {running === "undo" ? "Saving…" : "Undo last change"}
          </Button>
        ) : null}
      </div>
      {action.error ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
          {action.error}
        </p>
      ) : null}
      {action.notice ? (
        <p role="status" className="rounded-md border border-slate-300 bg-slate-50 px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900">
          {action.notice}
        </p>
      ) : null}
      {!writable ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">Inspection only. Persona actions must be explicitly enabled by the host.</p>
      ) : readOnly ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Trace editing stays disabled (read-only mode). Persona actions remain enabled and are audited.
        </p>
      ) : null}

      <SummaryTape state={state} view={view} />

      <div className="grid min-w-0 gap-4 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <ActivityTimeline view={view} rows={rows} selected={selected?.key ?? null} filter={filter} onSelect={setPicked} onFilter={setFilter} />
        {selected ? <DetailPane row={selected} state={state} decisions={decisions} writable={writable} busy={busy} running={running} decide={setAsking} /> : null}
      </div>

      <StatePanels state={state} view={view} writable={writable} busy={busy} running={running} run={run} />

      {asking ? (
        <ConfirmDialog
          open
          title={DECISION[asking].title}
          description={
            <div className="space-y-2">
              <p>{DECISION[asking].description}</p>
              {action.error ? <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-900 dark:bg-red-950 dark:text-red-200">{action.error}</p> : null}
            </div>
          }
          confirmLabel={DECISION[asking].confirm}
          danger={asking !== "approve"}
          pending={busy}
          reasonRequired={REASON_REQUIRED.has(asking)}
          reasonLabel={`Reason${REASON_REQUIRED.has(asking) ? "" : " (optional)"}: kept with the decision, not in the audit log (at most ${REASON_MAX} characters)`}
          onConfirm={(reason) => run(asking, reason ? { reason } : {})}
          onCancel={() => setAsking(null)}
        />
      ) : null}

      <p className="text-xs text-slate-500 dark:text-slate-400">
        {`The latest ${state.history_limit} changes and reflection attempts are retained. This is an adaptation history, not model training.`}
      </p>
    </div>
  );
}

function traceOf(state: PersonaState, source: { list: string; index: number }): string | null {
  const base = { agentId: state.agent_id, userId: state.user_id };
  if (source.list === "pending") {
    const first = state.pending?.evidence[0];
    return first ? traceHref({ ...base, agentId: first.agent_id || state.agent_id, threadId: first.thread_id }) : null;
  }
  const trace = source.list === "history" ? state.persona.evolution_history[source.index]?.trace : state.reviews[source.index]?.trace;
  return trace ? traceHref({ ...base, threadId: trace.thread_id, rootTraceId: trace.root_trace_id }) : null;
}
