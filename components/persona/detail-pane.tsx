// The selected timeline entry in full: a pending suggestion with its decision buttons, an
// applied change or undo, or one reflection attempt with its trace, usage and outcome.
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import type { ActionName } from "@/lib/persona/action-body";
import { traceHref } from "@/lib/persona/links";
import { reviewStatus, type MonitorRow } from "@/lib/persona/monitor";
import type { DecidedProposal, HistoryEntry, PendingProposal, PersonaDecisions, PersonaState, ReviewEntry } from "@/lib/persona/types";
import { Badge } from "@/components/ui/badge";
import { EvidenceList } from "./evidence-list";
import { GoalsDiff } from "./goals-diff";
import { pluralise } from "@/lib/text/format";

type Props = {
  row: MonitorRow;
  state: PersonaState;
  decisions: PersonaDecisions;
  writable: boolean;
  busy: boolean;
  running: ActionName | null;
  /** Opens the decision's confirm dialog. */
  decide: (a: "approve" | "dismiss") => void;
};

const eyebrow = "text-xs font-semibold tracking-wide text-indigo-700 uppercase dark:text-indigo-300";
const link = "text-sm font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300";

export function DetailPane({ row, state, decisions, ...rest }: Props) {
  const pane = "min-w-0 space-y-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800";
  if (row.source.list === "pending" && state.pending) {
    return <section aria-label="Selected activity" className={pane}><ProposalDetail p={state.pending} state={state} {...rest} /></section>;
  }
  if (row.source.list === "history") {
    const entry = state.persona.evolution_history[row.source.index];
    return entry ? <section aria-label="Selected activity" className={pane}><ChangeDetail e={entry} state={state} note={decisions.notes[entry.version] ?? null} /></section> : null;
  }
  const review = state.reviews[row.source.index];
  return review ? <section aria-label="Selected activity" className={pane}><ReviewDetail r={review} state={state} decided={decisions.proposals[review.id] ?? null} /></section> : null;
}

function ProposalDetail({ p, state, writable, busy, running, decide }: { p: PendingProposal; state: PersonaState } & Omit<Props, "row" | "state" | "decisions">) {
  return (
    <>
      <p className={eyebrow}>Suggested adaptation · not applied</p>
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => decide("approve")} disabled={!writable || state.paused || busy} pending={running === "approve"}>
          {running === "approve" ? "Saving…" : "Approve for next turn"}
        </Button>
        <Button variant="secondary" onClick={() => decide("dismiss")} disabled={!writable || state.paused || busy} pending={running === "dismiss"}>
          {running === "dismiss" ? "Saving…" : "Dismiss"}
        </Button>
      </div>
      {state.paused ? <p className="text-sm text-amber-700 dark:text-amber-300">Reflection is paused: resume it to approve or dismiss this suggestion.</p> : null}
      <p className="break-words whitespace-pre-wrap">{p.reason}</p>
      <GoalsDiff before={p.changes.goals.old} after={p.changes.goals.new} afterLabel="Proposed" />
      <EvidenceList items={p.evidence} userId={state.user_id} agentId={state.agent_id} title="Why this suggestion?" linkLabel="Inspect conversation trace" />
      <p className="text-xs break-all text-slate-500 dark:text-slate-400">Suggestion {p.id}</p>
    </>
  );
}

function ChangeDetail({ e, state, note }: { e: HistoryEntry; state: PersonaState; note: string | null }) {
  const undo = e.action === "undo";
  return (
    <>
      <p className={eyebrow}>{undo ? `Version ${e.version} · change undone` : `Version ${e.version} · approach updated`}</p>
      {e.trace ? (
        <a className={link} href={traceHref({ agentId: state.agent_id, userId: state.user_id, threadId: e.trace.thread_id, rootTraceId: e.trace.root_trace_id })}>
          Inspect version decision trace ↗
        </a>
      ) : null}
      <p className="break-words whitespace-pre-wrap">{e.change_trigger.reason}</p>
      {note ? <Reason text={note} /> : null}
      <GoalsDiff before={e.changes.goals.old} after={e.changes.goals.new} afterLabel="After" />
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-500 dark:text-slate-400">{undo ? "Undone by" : "Approved by"}</dt>
        <dd className="min-w-0 break-all">{e.actor_id}</dd>
        <dt className="text-slate-500 dark:text-slate-400">When</dt>
        <dd><LocalTime iso={e.timestamp} /></dd>
        <dt className="text-slate-500 dark:text-slate-400">Review</dt>
        <dd className="min-w-0 break-all">{e.review_id ?? "—"}</dd>
      </dl>
      <EvidenceList items={e.evidence} userId={state.user_id} agentId={state.agent_id} title="Supporting memories:" linkLabel="Conversation trace" />
    </>
  );
}

function ReviewDetail({ r, state, decided }: { r: ReviewEntry; state: PersonaState; decided: DecidedProposal | null }) {
  const st = reviewStatus(r.status);
  const figures: [string, string][] = [
    ["Reviewed", pluralise(r.evidence_count, "message")],
    ["Selected", String(r.selected_count)],
    ["Trigger", r.trigger],
    ["Model", r.model ?? "—"],
    ["Tokens", r.input_tokens !== null || r.output_tokens !== null ? `${r.input_tokens ?? "?"} in · ${r.output_tokens ?? "?"} out` : "—"],
    ["Time", r.duration_ms !== null ? `${(r.duration_ms / 1000).toFixed(1)} s` : "—"],
    ["Est. cost", r.estimated_cost_usd !== null ? `$${r.estimated_cost_usd.toFixed(4)}` : "not estimated"],
  ];
  return (
    <>
      <div className="flex flex-wrap items-center gap-2">
        <p className={eyebrow}>Reflection</p>
        <Badge tone={st.tone}>{st.label}</Badge>
        <LocalTime iso={r.timestamp} />
      </div>
      {r.trace ? (
        <a className={link} href={traceHref({ agentId: state.agent_id, userId: state.user_id, threadId: r.trace.thread_id, rootTraceId: r.trace.root_trace_id })}>
          Inspect reflection trace, usage &amp; outcome ↗
        </a>
      ) : (
        <p className="text-sm text-slate-500">Trace not captured for this reflection.</p>
      )}
      {r.reason ? <p className="break-words whitespace-pre-wrap">{r.reason}</p> : null}
      {decided ? <DecisionDetail d={decided} /> : null}
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        {figures.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-slate-500 dark:text-slate-400">{k}</dt>
            <dd className="min-w-0 break-words">{v}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

function Reason({ text }: { text: string }) {
  return (
    <p className="rounded-md bg-slate-50 px-3 py-2 text-sm break-words whitespace-pre-wrap dark:bg-slate-900">
      <span className="font-medium">Reason given: </span>
      {text}
    </p>
  );
}

/** A suggestion an admin decided: the verdict, who and when, their reason and the goals it proposed. */
function DecisionDetail({ d }: { d: DecidedProposal }) {
  const approved = d.status === "approved";
  return (
    <div className="space-y-2 border-t border-slate-200 pt-3 dark:border-slate-800">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <Badge tone={approved ? "green" : "gray"}>{approved ? "Approved" : "Dismissed"}</Badge>
        <span className="min-w-0 break-all">{d.decided_by ?? "—"}</span>
        <LocalTime iso={d.decided_at} />
      </p>
      {d.decision_reason ? <Reason text={d.decision_reason} /> : <p className="text-sm text-slate-500 dark:text-slate-400">No reason given.</p>}
      <GoalsDiff before={d.changes.goals.old} after={d.changes.goals.new} afterLabel={approved ? "Approved" : "Dismissed"} />
    </div>
  );
}
