// The inbox of an install no agent has sent runs to yet: the first steps in order, each marked
// done once it is, instead of an "all caught up" that leaves a new admin nowhere to go. A
// viewer reads what an admin has to do, with links only to pages a viewer may open.
import Link from "@/components/ui/link";
import type { InboxSetup } from "@/lib/console/pages/inbox";

const link = "font-medium text-indigo-700 underline hover:no-underline dark:text-indigo-300";

export function GettingStarted({ setup, canSetUp }: { setup: InboxSetup; canSetUp: boolean }) {
  const steps: { done: boolean; title: string; body: React.ReactNode }[] = [
    {
      done: setup.apiKey,
      title: "Create an API key",
      body: canSetUp ? (
        <>
          In <Link href="/settings/api-keys" className={link}>Settings → API keys</Link>, with the ingest scope (and admin to declare agents).
        </>
      ) : (
        "An admin creates one in Settings → API keys for the agent to authenticate with."
      ),
    },
    {
      done: setup.agent,
      title: "Register an agent",
      body: (
        <>
          Declare it and its tools over the API: <Link href="/agents" className={link}>Agents</Link> shows a copyable example.
        </>
      ),
    },
    {
      done: setup.runs,
      title: "Send its runs",
      body: "Each run with its tool steps and outcome. Runs that repeat a tool path form a trajectory class.",
    },
    {
      done: false,
      title: canSetUp ? "Review here" : "Follow the review here",
      body: canSetUp
        ? "Classes that pass the gates wait here to be distilled; the skills they make wait here for your decision."
        : "Classes that pass the gates and the skills distilled from them appear here while they await an admin's decision.",
    },
  ];
  const next = steps.findIndex((s) => !s.done);
  return (
    <section aria-labelledby="getting-started-title" className="rounded-lg border border-slate-200 p-6 dark:border-slate-800">
      <h2 id="getting-started-title" className="text-base font-semibold">
        Get started
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">No agent has sent a run yet, so nothing awaits a decision. {canSetUp ? "Do this first:" : "What happens first:"}</p>
      <ol className="mt-4 space-y-3">
        {steps.map((s, i) => (
          <li key={s.title} className="flex gap-3" aria-current={i === next ? "step" : undefined}>
            <span
              aria-hidden
              className={`flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${s.done ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200" : i === next ? "bg-indigo-600 text-white" : "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200"}`}
            >
              {s.done ? "✓" : i + 1}
            </span>
            <div className="min-w-0 text-sm">
              <p className="font-medium">
                {s.title}
                {s.done ? <span className="ml-2 text-xs font-normal text-emerald-800 dark:text-emerald-300">done</span> : null}
              </p>
              <p className="text-slate-600 dark:text-slate-300">{s.body}</p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
