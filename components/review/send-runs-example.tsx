// What to do when there is nothing to review yet: send runs with their tool steps (a copyable
// curl example). Runs without tool calls never form a trajectory class.
import { headers } from "next/headers";
import { CodeBlock } from "../ui/code-block";
import { CopyButton } from "../ui/copy-button";
import { EmptyState } from "../ui/empty-state";

function example(origin: string, agentId: string) {
  const body = {
    query: "Refund order A1",
    steps: [
      { tool: "lookup_order", arguments: { order_id: "A1" }, result: { status: "paid" } },
      { tool: "issue_refund", arguments: { order_id: "A1", amount: 12.5 }, result: { accepted: true } },
    ],
    outcome: "success",
  };
  return [
    `export PROCTOR_URL=${origin}`,
    `export PROCTOR_API_KEY=pk_…   # Settings → API keys, scope ingest`,
    ``,
    `curl -X POST "$PROCTOR_URL/api/v1/agents/${agentId}/workflows" \\`,
    `  -H "Authorization: Bearer $PROCTOR_API_KEY" -H "Content-Type: application/json" \\`,
    `  -d '${JSON.stringify(body)}'`,
  ].join("\n");
}

export async function SendRunsExample({ title, agentId }: { title: string; agentId?: string }) {
  const h = await headers();
  const origin = `${h.get("x-forwarded-proto") ?? "http"}://${h.get("host") ?? "localhost:3000"}`;
  const text = example(origin, agentId ?? "support-bot");
  return (
    <EmptyState title={title} action={<CopyButton value={text} label="Copy example" />}>
      <p>
        Trajectory classes form from runs that made tool calls: each distinct tool path is one class. Runs without recorded tool steps are not grouped.
        {agentId ? "" : " Register the agent first (see Agents)."} Send runs like this:
      </p>
      <div className="mt-3 text-left">
        <CodeBlock value={text} label="Example: send a run with its tool steps" />
      </div>
    </EmptyState>
  );
}
