"use client";
// List API keys (GET /api/console/api-keys), create, rotate and revoke them (server actions).
// These are audited decisions: no optimistic updates, the list refreshes from the server's answer.
// A key's bindings (tenant, agents, evaluator) and expiry are chosen at creation.
import { apiKeyRowId } from "@/lib/console/links";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { createApiKey, revokeApiKey, rotateApiKey } from "@/lib/actions/api-keys";
import { unwrap } from "@/lib/actions/client";
import { fetchJson } from "@/lib/api/browser-fetch";
import type { ApiKeyView } from "@/lib/auth/api-key-admin";
import type { ApiScope } from "@/lib/auth/actor";
import type { BindableAgent } from "@/lib/auth/pages/api-keys";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { DataTable } from "../ui/table";
import { EmptyState } from "../ui/empty-state";
import { QueryView } from "../ui/query-view";
import { LocalTime } from "../ui/local-time";
import { useToast } from "../ui/toast";
import { SecretOnce } from "./secret-once";
import { fieldClass, labelClass } from "./form-styles";
import { formatDateTime } from "@/lib/text/format";

const KEYS = ["console", "api-keys"] as const;

const SCOPES: { id: ApiScope; hint: string }[] = [
  { id: "ingest", hint: "send runs and conversations, ask for context, read" },
  { id: "admin", hint: "register agents, promote, activate, demote" },
  { id: "ledger:propose", hint: "agents: propose ledger procedures (not with ledger:evaluate)" },
  { id: "ledger:evaluate", hint: "evaluators: record ledger evaluations as one evaluator id (not with ledger:propose)" },
];

/** Bindings as one line for the list: what the key reaches. */
function bindingText(k: ApiKeyView): string {
  const parts = [k.tenant ? `tenant ${k.tenant}` : null, k.agents.length ? `agents ${k.agents.join(", ")}` : null, k.evaluator_id ? `evaluator ${k.evaluator_id}` : null];
  return parts.filter(Boolean).join(" · ") || "any tenant and agent";
}

export function ApiKeysPanel({ agents }: { agents: BindableAgent[] }) {
  const qc = useQueryClient();
  const toast = useToast();
  const list = useQuery({ queryKey: KEYS, queryFn: () => fetchJson<{ api_keys: ApiKeyView[] }>("/api/console/api-keys") });
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<ApiScope[]>(["ingest"]);
  const [tenant, setTenant] = useState("");
  const [boundAgents, setBoundAgents] = useState<string[]>([]);
  const [evaluatorId, setEvaluatorId] = useState("");
  const [expiresAt, setExpiresAt] = useState("");
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);
  const [rotating, setRotating] = useState<ApiKeyView | null>(null);
  const evaluates = scopes.includes("ledger:evaluate");

  const create = useMutation({
    mutationFn: () =>
      unwrap(
        createApiKey({
          name,
          scopes,
          tenant: tenant || null,
          agents: boundAgents,
          evaluator_id: evaluates ? evaluatorId || null : null,
          // datetime-local is the admin's local time; the server gets it with a zone.
          expires_at: expiresAt ? new Date(expiresAt).toISOString() : null,
        }),
      ),
    onSuccess: (r) => {
      setSecret({ name: r.api_key.name, value: r.secret });
      setName("");
      setTenant("");
      setBoundAgents([]);
      setEvaluatorId("");
      setExpiresAt("");
      toast.success(`API key “${r.api_key.name}” created.`);
      void qc.invalidateQueries({ queryKey: KEYS });
    },
    onError: (e) => toast.error(e.message),
  });
  const revoke = useMutation({
    mutationFn: (v: { id: string; reason: string }) => unwrap(revokeApiKey(v)),
    onSuccess: () => {
      toast.success(`API key “${revoking?.name}” revoked.`);
      setRevoking(null);
      void qc.invalidateQueries({ queryKey: KEYS });
    },
    onError: (e) => toast.error(e.message),
  });
  const rotate = useMutation({
    mutationFn: (v: { id: string; reason: string }) => unwrap(rotateApiKey(v)),
    onSuccess: (r) => {
      setSecret({ name: r.api_key.name, value: r.secret });
      toast.success(`API key “${r.api_key.name}” rotated; the old secret works until ${formatDateTime(r.api_key.previous_valid_until ?? new Date())}.`);
      setRotating(null);
      void qc.invalidateQueries({ queryKey: KEYS });
    },
    onError: (e) => toast.error(e.message),
  });

  return (
    <>
      {secret ? <SecretOnce title={`Secret of “${secret.name}”`} value={secret.value} onDone={() => { setSecret(null); create.reset(); rotate.reset(); }} /> : null}
      <form
        aria-label="Create an API key"
        className="mb-8 flex flex-wrap items-end gap-4 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <label className={`${labelClass} min-w-[14rem] flex-1`}>
          Name
          <input className={fieldClass} value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} placeholder="support-bot production" />
        </label>
        <fieldset className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <legend className="mb-1 font-medium">Scopes</legend>
          {SCOPES.map((s) => (
            <label key={s.id} className="flex items-center gap-1.5" title={s.hint}>
              <input
                type="checkbox"
                checked={scopes.includes(s.id)}
                onChange={(e) => setScopes(e.target.checked ? [...scopes, s.id] : scopes.filter((x) => x !== s.id))}
                className="size-4 rounded focus-visible:outline-2 focus-visible:outline-indigo-500"
              />
              {s.id}
            </label>
          ))}
        </fieldset>
        {evaluates ? (
          <label className={`${labelClass} min-w-[12rem]`}>
            Evaluator id
            <input className={fieldClass} value={evaluatorId} onChange={(e) => setEvaluatorId(e.target.value)} required maxLength={512} placeholder="held-out-harness" />
          </label>
        ) : null}
        <label className={`${labelClass} min-w-[12rem]`}>
          Ledger tenant <span className="font-normal text-slate-500">(blank: any)</span>
          <input className={fieldClass} value={tenant} onChange={(e) => setTenant(e.target.value)} maxLength={512} />
        </label>
        <label className={`${labelClass} min-w-[12rem]`}>
          Expires <span className="font-normal text-slate-500">(blank: never)</span>
          <input type="datetime-local" className={fieldClass} value={expiresAt} onChange={(e) => setExpiresAt(e.target.value)} />
        </label>
        <fieldset className="w-full text-sm">
          <legend className="mb-1 font-medium">
            Agents <span className="font-normal text-slate-500">(none checked: every agent)</span>
          </legend>
          {agents.length === 0 ? (
            <p className="text-slate-500">No agents declared yet.</p>
          ) : (
            <div className="flex flex-wrap gap-x-4 gap-y-1">
              {agents.map((a) => (
                <label key={a.id} className="flex items-center gap-1.5" title={a.name}>
                  <input
                    type="checkbox"
                    checked={boundAgents.includes(a.id)}
                    onChange={(e) => setBoundAgents(e.target.checked ? [...boundAgents, a.id] : boundAgents.filter((x) => x !== a.id))}
                    className="size-4 rounded focus-visible:outline-2 focus-visible:outline-indigo-500"
                  />
                  <code className="text-xs">{a.id}</code>
                </label>
              ))}
            </div>
          )}
        </fieldset>
        <Button type="submit" pending={create.isPending} disabled={!name.trim() || scopes.length === 0}>
          Create key
        </Button>
      </form>

      <QueryView query={list} noun="keys">
        {(data) => (
          <DataTable
            caption="API keys"
            rows={data.api_keys}
            rowKey={(k) => k.id}
            rowId={(k) => apiKeyRowId(k.id)}
            empty={<EmptyState title="No API keys yet">Create one above for each agent (or environment) that reports to Proctor.</EmptyState>}
            columns={[
              { key: "name", header: "Name", cell: (k) => <span className="font-medium">{k.name}</span> },
              { key: "prefix", header: "Prefix", cell: (k) => <code className="text-xs">{k.prefix}</code> },
              { key: "scopes", header: "Scopes", cell: (k) => <span className="flex gap-1">{k.scopes.map((s) => <Badge key={s} tone={s === "admin" ? "violet" : "blue"}>{s}</Badge>)}</span> },
              { key: "binding", header: "Bound to", cell: (k) => <span className="block max-w-[16rem] text-xs break-words">{bindingText(k)}</span> },
              { key: "created", header: "Created", cell: (k) => <span className="text-xs"><LocalTime iso={k.created_at} />{k.created_by ? <span className="block text-slate-500">by {k.created_by}</span> : null}</span> },
              {
                key: "expires",
                header: "Expires",
                cell: (k) => (
                  <span className="text-xs">
                    <LocalTime iso={k.expires_at} fallback="never" />
                    {k.previous_valid_until ? (
                      <span className="block text-slate-500">
                        old secret until <LocalTime iso={k.previous_valid_until} />
                      </span>
                    ) : null}
                  </span>
                ),
              },
              {
                key: "used",
                header: "Last used",
                cell: (k) => (
                  <span className="text-xs">
                    <LocalTime iso={k.last_used_at} fallback="never" />
                    {k.last_used_address ? <span className="block text-slate-500">from {k.last_used_address}</span> : null}
                  </span>
                ),
              },
              { key: "status", header: "Status", cell: (k) => <span title={k.revoked_at ?? k.expires_at ?? undefined}><Badge status={k.status} /></span> },
              {
                key: "actions",
                header: <span className="sr-only">Actions</span>,
                cell: (k) =>
                  k.revoked_at ? null : (
                    <span className="flex gap-2">
                      {k.status === "active" ? (
                        <Button variant="secondary" size="sm" onClick={() => setRotating(k)} aria-label={`Rotate ${k.name}`}>
                          Rotate
                        </Button>
                      ) : null}
                      <Button variant="secondary" size="sm" onClick={() => setRevoking(k)} aria-label={`Revoke ${k.name}`}>
                        Revoke
                      </Button>
                    </span>
                  ),
              },
            ]}
          />
        )}
      </QueryView>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.name ?? ""}”?`}
        description={<>Agents using <code>{revoking?.prefix}</code> will get 401 from now on. This cannot be undone.</>}
        confirmLabel="Revoke key"
        danger
        pending={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={(reason) => revoking && revoke.mutate({ id: revoking.id, reason })}
      />
      <ConfirmDialog
        open={rotating !== null}
        title={`Rotate the secret of “${rotating?.name ?? ""}”?`}
        description={
          <>
            A new secret for <code>{rotating?.prefix}</code> is shown once. The current secret keeps working for the grace period
            (PROCTOR_API_KEY_ROTATION_GRACE_HOURS, 24 h by default), then answers 401; rotating again ends it at once.
          </>
        }
        confirmLabel="Rotate secret"
        pending={rotate.isPending}
        onCancel={() => setRotating(null)}
        onConfirm={(reason) => rotating && rotate.mutate({ id: rotating.id, reason })}
      />
    </>
  );
}
