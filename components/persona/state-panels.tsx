// The current approach, the latest reflection, and the opt-in daily review controls.
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import type { ActionName } from "@/lib/persona/action-body";
import { reviewStatus, type MonitorView } from "@/lib/persona/monitor";
import type { PersonaState } from "@/lib/persona/types";

type Props = {
  state: PersonaState;
  view: MonitorView;
  writable: boolean;
  busy: boolean;
  running: ActionName | null;
  run: (a: ActionName, extra?: { daily_enabled?: boolean }) => void;
};

const card = "min-w-0 space-y-2 rounded-lg border border-slate-200 p-4 text-sm dark:border-slate-800";
const eyebrow = "text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400";
const muted = "text-slate-600 dark:text-slate-400";

const LATEST: Record<string, string> = {
  proposed: "A suggestion is waiting for your decision. Nothing changes until you approve it.",
  no_change: "The reviewed conversations did not support a durable change. The current approach stays in place.",
  failed: "The last reflection failed. The approved approach is unchanged; retry in a few minutes.",
  reviewing: "A reflection is running. Reload this page to see its result.",
  approved: "The last suggestion was approved.",
  dismissed: "The last suggestion was dismissed. The approach is unchanged.",
  superseded: "The last suggestion was withdrawn because the approach was undone.",
  cancelled: "The last reflection was cancelled when reflection was paused.",
};

export function StatePanels({ state, view, writable, busy, running, run }: Props) {
  const latest = state.reviews[state.reviews.length - 1];
  return (
    <div className="grid min-w-0 gap-4 lg:grid-cols-3">
      <section className={card} aria-labelledby="pe-current">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="pe-current" className={eyebrow}>Current approach</h2>
          <span className="rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-semibold text-indigo-800 dark:bg-indigo-950 dark:text-indigo-300">
            {`Version ${state.persona.version}`}
          </span>
        </div>
        <p className="font-semibold break-words">
          {`${state.persona.name} · ${state.persona.role}`}
        </p>
        {state.persona.goals ? (
          <p className="break-words whitespace-pre-wrap">{state.persona.goals}</p>
        ) : (
          <p className={`${muted} italic`}>No learning goals yet.</p>
        )}
        <p className="rounded-md bg-slate-50 p-2 text-xs dark:bg-slate-900">
          <strong>Stable foundation</strong> · source grounding, application rules and explicit user preferences are not changed by reflection.
        </p>
        <p className={muted}>
          {state.daily_enabled ? "Daily + manual review" : "Manual review"} · approval required · {view.status}
        </p>
        <p className={muted}>
          Last review: <LocalTime iso={state.last_review_at} fallback="not yet reviewed" />
        </p>
      </section>

      <section className={card} aria-labelledby="pe-latest">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="pe-latest" className={eyebrow}>Latest reflection</h2>
          {latest ? <Badge tone={reviewStatus(latest.status).tone}>{reviewStatus(latest.status).label}</Badge> : null}
        </div>
        <p>{LATEST[state.review_state] ?? "No reflections yet. Reflect now reviews the account's recent messages; it does not force a change."}</p>
      </section>

      <section className={card} aria-labelledby="pe-daily">
        <h2 id="pe-daily" className={eyebrow}>Daily reflection</h2>
        <p>Checks at most every 24 hours, and only after new conversations. Suggestions always wait for approval. Busy workers may check later.</p>
        <Button
          variant="secondary"
          size="sm"
          disabled={!writable || busy}
          pending={running === "schedule"}
          onClick={() => run("schedule", { daily_enabled: !state.daily_enabled })}
        >
          {running === "schedule" ? "Saving…" : state.daily_enabled ? "Turn off daily review" : "Enable daily review"}
        </Button>
        {state.daily_enabled ? (
          <p className={muted}>
            {state.paused ? (
              "Checks paused."
            ) : state.pending ? (
              "Awaiting your decision on the current suggestion."
            ) : (
              <>
                Next check no earlier than <LocalTime iso={state.next_daily_check_at} fallback="the next worker check" />.
              </>
            )}
          </p>
        ) : null}
        {state.last_daily_check_at ? (
          <p className={muted}>
            Last daily check: <LocalTime iso={state.last_daily_check_at} /> · {(state.last_daily_outcome ?? "").replace(/_/g, " ")}
          </p>
        ) : null}
      </section>
    </div>
  );
}
