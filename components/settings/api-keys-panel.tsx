"use client";
// List API keys (GET /api/console/api-keys), create and revoke them (server actions). Creation
// and revocation are audited decisions: no optimistic updates, the list refreshes from the server's answer.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { createApiKey, revokeApiKey } from "@/lib/actions/api-keys";
import { unwrap } from "@/lib/actions/client";
import { fetchJson } from "@/lib/api/browser-fetch";
import type { ApiKeyView } from "@/lib/auth/api-key-admin";
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

const KEYS = ["console", "api-keys"] as const;

export function ApiKeysPanel() {
  const qc = useQueryClient();
  const toast = useToast();
  const list = useQuery({ queryKey: KEYS, queryFn: () => fetchJson<{ api_keys: ApiKeyView[] }>("/api/console/api-keys") });
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<string[]>(["ingest"]);
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);

  const create = useMutation({
    mutationFn: () => unwrap(createApiKey({ name, scopes: scopes as ("ingest" | "admin")[] })),
    onSuccess: (r) => {
      setSecret({ name: r.api_key.name, value: r.secret });
      setName("");
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

  return (
    <>
      {secret ? <SecretOnce title={`Secret of “${secret.name}”`} value={secret.value} onDone={() => setSecret(null)} /> : null}
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
        <fieldset className="flex gap-4 text-sm">
          <legend className="mb-1 font-medium">Scopes</legend>
          {[
            { id: "ingest", hint: "send runs, conversations, evaluations" },
            { id: "admin", hint: "register agents, promote, activate, demote" },
          ].map((s) => (
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
            empty={<EmptyState title="No API keys yet">Create one above for each agent (or environment) that reports to Proctor.</EmptyState>}
            columns={[
              { key: "name", header: "Name", cell: (k) => <span className="font-medium">{k.name}</span> },
              { key: "prefix", header: "Prefix", cell: (k) => <code className="text-xs">{k.prefix}</code> },
              { key: "scopes", header: "Scopes", cell: (k) => <span className="flex gap-1">{k.scopes.map((s) => <Badge key={s} tone={s === "admin" ? "violet" : "blue"}>{s}</Badge>)}</span> },
              { key: "created", header: "Created", cell: (k) => <span className="text-xs"><LocalTime iso={k.created_at} />{k.created_by ? <span className="block text-slate-500">by {k.created_by}</span> : null}</span> },
              { key: "used", header: "Last used", cell: (k) => <LocalTime iso={k.last_used_at} fallback="never" /> },
              {
                key: "status",
                header: "Status",
                cell: (k) => (k.revoked_at ? <span title={k.revoked_at}><Badge status="revoked" /></span> : <Badge status="active" />),
              },
              {
                key: "actions",
                header: <span className="sr-only">Actions</span>,
                cell: (k) =>
                  k.revoked_at ? null : (
                    <Button variant="secondary" size="sm" onClick={() => setRevoking(k)} aria-label={`Revoke ${k.name}`}>
                      Revoke
                    </Button>
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
    </>
  );
}
