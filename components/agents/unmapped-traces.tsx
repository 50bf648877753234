// "Traces received that made no runs" (lib/otlp/unmapped.ts): per reason, how many traces and
// spans, a sample span's name and attribute keys (never values), first and last seen. On an
// agent's page for its own traces; on the agents list for those that named no declared agent.
import { DataTable } from "@/components/ui/table";
import { LocalTime } from "@/components/ui/local-time";
import type { UnmappedRow } from "@/lib/otlp/unmapped";
import { formatNumber } from "@/lib/text/format";

const MAX_KEYS_SHOWN = 12;

export function UnmappedTraces({ rows, showAgent }: { rows: UnmappedRow[]; showAgent: boolean }) {
  if (rows.length === 0) return null;
  return (
    <section id="unmapped-traces" aria-labelledby="unmapped-traces-title" className="mt-8 scroll-mt-20">
      <h2 id="unmapped-traces-title" className="mb-1 text-sm font-semibold text-slate-700 dark:text-slate-300">
        Traces received that made no runs
      </h2>
      <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">
        OpenTelemetry traces that reached Proctor but became no run, counted per reason. The sample shows one span&apos;s name and attribute keys (never their values) to
        compare with the conventions README &ldquo;OpenTelemetry ingestion&rdquo; lists.
      </p>
      <DataTable
        caption="Traces received that made no runs"
        rows={rows}
        rowKey={(r) => `${r.agentId ?? ""}/${r.reason}`}
        columns={[
          ...(showAgent ? [{ key: "agent", header: "Agent", cell: (r: UnmappedRow) => (r.agentId ? <code>{r.agentId}</code> : <span className="text-slate-500">none named</span>) }] : []),
          { key: "reason", header: "Why no run", cell: (r) => <span className="block max-w-md break-words">{r.reason}</span> },
          { key: "traces", header: "Traces", cell: (r) => <span className="tabular-nums">{formatNumber(r.traces)}</span> },
          { key: "spans", header: "Spans", cell: (r) => <span className="tabular-nums">{formatNumber(r.spans)}</span> },
          {
            key: "sample",
            header: "Sample span",
            cell: (r) => (
              <span className="block max-w-md">
                <code className="font-medium break-all">{r.sampleSpanName || "(no name)"}</code>
                <span className="mt-1 flex flex-wrap gap-1" aria-label="Attribute keys">
                  {r.sampleAttributeKeys.slice(0, MAX_KEYS_SHOWN).map((k) => (
                    <code key={k} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs break-all dark:bg-slate-800">
                      {k}
                    </code>
                  ))}
                  {r.sampleAttributeKeys.length > MAX_KEYS_SHOWN ? <span className="text-xs text-slate-500">+{r.sampleAttributeKeys.length - MAX_KEYS_SHOWN} more</span> : null}
                  {r.sampleAttributeKeys.length === 0 ? <span className="text-xs text-slate-500">no attributes</span> : null}
                </span>
              </span>
            ),
          },
          { key: "first", header: "First seen", cell: (r) => <LocalTime iso={r.firstSeenAt} /> },
          { key: "last", header: "Last seen", cell: (r) => <LocalTime iso={r.lastSeenAt} /> },
        ]}
      />
    </section>
  );
}
