"use client";
// Webhook endpoints (add, edit, enable/disable, rotate the secret, send a test event, delete) and
// each one's recent deliveries with "Redeliver". Audited decisions: not optimistic; the page re-reads afterwards.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { createWebhookEndpoint, deleteWebhookEndpoint, redeliverWebhook, rotateWebhookSecret, sendTestWebhookEvent, updateWebhookEndpoint } from "@/lib/actions/webhooks";
import { unwrap } from "@/lib/actions/client";
import type { WebhooksPage } from "@/lib/webhooks/pages/webhooks";
import type { WebhookDeliveryView } from "@/lib/webhooks/schemas";
import type { WebhookEventType } from "@/lib/webhooks/events";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { DataTable } from "../ui/table";
import { EmptyState } from "../ui/empty-state";
import { LocalTime } from "../ui/local-time";
import { useToast } from "../ui/toast";
import { SecretOnce } from "./secret-once";
import { fieldClass, labelClass } from "./form-styles";

type Endpoint = WebhooksPage["endpoints"][number];
type Fields = { url: string; description: string; events: WebhookEventType[]; enabled: boolean };

const SECRET_NOTE = "Copy it now: it is stored encrypted, used only to sign deliveries, and will not be shown again.";
const DELIVERY_TONE = { pending: "blue", delivered: "green", failed: "red" } as const;

/** Re-reads the page after a change (server-rendered list). */
function useRefresh() {
  const router = useRouter();
  const [refreshing, start] = useTransition();
  return [refreshing, () => start(() => router.refresh())] as const;
}

function EndpointForm({ initial, events, label, submitLabel, pending, onSubmit, onCancel }: {
  initial: Fields;
  events: WebhooksPage["events"];
  label: string;
  submitLabel: string;
  pending: boolean;
  onSubmit: (f: Fields) => void;
  onCancel?: () => void;
}) {
  const [f, setF] = useState(initial);
  // A disabled submit says what it waits for (read by screen readers through aria-describedby).
  const missing = [!f.url.trim() ? "enter a URL" : "", f.events.length === 0 ? "choose at least one event" : ""].filter(Boolean);
  const hintId = `${label.replace(/\W+/g, "-")}-needs`;
  return (
    <form
      aria-label={label}
      className="mb-6 flex flex-wrap items-end gap-4 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(f);
      }}
    >
      <label className={`${labelClass} min-w-[20rem] flex-1`}>
        URL
        <input className={fieldClass} value={f.url} onChange={(e) => setF({ ...f, url: e.target.value })} required maxLength={2000} placeholder="https://hooks.example.com/proctor" />
      </label>
      <label className={`${labelClass} min-w-[14rem] flex-1`}>
        Description
        <input className={fieldClass} value={f.description} onChange={(e) => setF({ ...f, description: e.target.value })} maxLength={500} />
      </label>
      <label className="flex items-center gap-1.5 text-sm">
        <input type="checkbox" checked={f.enabled} onChange={(e) => setF({ ...f, enabled: e.target.checked })} className="size-4 rounded" />
        Enabled
      </label>
      <fieldset className="w-full text-sm">
        <legend className="mb-1 font-medium">Events</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          {events.map((ev) => (
            <label key={ev.type} className="flex items-center gap-1.5" title={ev.type}>
              <input
                type="checkbox"
                checked={f.events.includes(ev.type)}
                onChange={(e) => setF({ ...f, events: e.target.checked ? [...f.events, ev.type] : f.events.filter((x) => x !== ev.type) })}
                className="size-4 rounded focus-visible:outline-2 focus-visible:outline-indigo-500"
              />
              {ev.label}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" pending={pending} disabled={missing.length > 0} aria-describedby={missing.length ? hintId : undefined}>
          {submitLabel}
        </Button>
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
        ) : null}
        {missing.length ? (
          <p id={hintId} className="text-sm text-slate-600 dark:text-slate-300">
            To {submitLabel.toLowerCase()}, {missing.join(" and ")}.
          </p>
        ) : null}
      </div>
    </form>
  );
}

function Deliveries({ rows, canManage }: { rows: WebhookDeliveryView[]; canManage: boolean }) {
  const toast = useToast();
  const [refreshing, refresh] = useRefresh();
  const redeliver = useMutation({
    mutationFn: (id: string) => unwrap(redeliverWebhook({ delivery_id: id })),
    onSuccess: (d) => {
      toast.success(`Message ${d.id} is queued again.`);
      refresh();
    },
    onError: (e) => toast.error(e.message),
  });
  return (
    <DataTable
      caption="Recent deliveries"
      rows={rows}
      rowKey={(d) => d.id}
      empty={<EmptyState title="No deliveries yet">Messages appear here when a chosen event happens.</EmptyState>}
      columns={[
        { key: "event", header: "Event", cell: (d) => <code className="text-xs">{d.event}</code> },
        { key: "status", header: "Status", cell: (d) => <Badge tone={DELIVERY_TONE[d.status]}>{d.status}</Badge> },
        { key: "attempts", header: "Attempts", cell: (d) => d.attempts },
        { key: "time", header: "Time", cell: (d) => <span className="text-xs"><LocalTime iso={d.last_attempt_at ?? d.created_at} /></span> },
        {
          key: "code",
          header: "Response",
          cell: (d) => <span className="text-xs" title={d.last_error ?? undefined}>{d.response_code ?? d.last_error ?? "—"}</span>,
        },
        {
          key: "actions",
          header: <span className="sr-only">Actions</span>,
          cell: (d) =>
            canManage && d.status !== "pending" ? (
              <Button variant="secondary" size="sm" pending={redeliver.isPending && redeliver.variables === d.id} disabled={refreshing} onClick={() => redeliver.mutate(d.id)} aria-label={`Redeliver ${d.id}`}>
                Redeliver
              </Button>
            ) : null,
        },
      ]}
    />
  );
}

function EndpointCard({ endpoint: e, events, canManage, onSecret }: { endpoint: Endpoint; events: WebhooksPage["events"]; canManage: boolean; onSecret: (s: { url: string; value: string }) => void }) {
  const toast = useToast();
  const [refreshing, refresh] = useRefresh();
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const update = useMutation({
    mutationFn: (f: Fields) => unwrap(updateWebhookEndpoint({ id: e.id, ...f })),
    onSuccess: () => {
      toast.success("Webhook endpoint saved.");
      setEditing(false);
      refresh();
    },
    onError: (err) => toast.error(err.message),
  });
  const rotate = useMutation({
    mutationFn: () => unwrap(rotateWebhookSecret({ id: e.id })),
    onSuccess: (r) => {
      onSecret({ url: e.url, value: r.secret });
      toast.success("Signing secret rotated; the old one no longer signs.");
    },
    onError: (err) => toast.error(err.message),
  });
  const remove = useMutation({
    mutationFn: () => unwrap(deleteWebhookEndpoint({ id: e.id })),
    onSuccess: () => {
      toast.success("Webhook endpoint deleted.");
      refresh();
    },
    onError: (err) => toast.error(err.message),
  });
  const test = useMutation({
    mutationFn: () => unwrap(sendTestWebhookEvent({ id: e.id })),
    onSuccess: (d) => {
      toast.success(`Test event ${d.id} queued: its delivery appears below.`);
      refresh();
    },
    onError: (err) => toast.error(err.message),
  });
  const fields: Fields = { url: e.url, description: e.description, events: e.events, enabled: e.enabled };
  return (
    <section aria-label={`Webhook endpoint ${e.url}`} className="mb-8 rounded-lg border border-slate-200 p-4 dark:border-slate-800">
      <div className="mb-3 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-mono text-sm break-all">{e.url}</p>
          {e.description ? <p className="text-sm text-slate-600 dark:text-slate-400">{e.description}</p> : null}
          <p className="mt-1 flex flex-wrap gap-1">
            <Badge tone={e.enabled ? "green" : "gray"}>{e.enabled ? "enabled" : "disabled"}</Badge>
            {e.events.map((t) => <Badge key={t} tone="blue">{t}</Badge>)}
          </p>
        </div>
        {canManage ? (
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" size="sm" onClick={() => setEditing(!editing)}>Edit</Button>
            <Button variant="secondary" size="sm" pending={update.isPending || refreshing} onClick={() => update.mutate({ ...fields, enabled: !e.enabled })}>
              {e.enabled ? "Disable" : "Enable"}
            </Button>
            <Button variant="secondary" size="sm" pending={test.isPending || refreshing} disabled={!e.enabled} title={e.enabled ? undefined : "Enable the endpoint to send a test event"} onClick={() => test.mutate()}>
              Send test event
            </Button>
            <Button variant="secondary" size="sm" pending={rotate.isPending} onClick={() => rotate.mutate()}>Rotate secret</Button>
            {confirmDelete ? (
              <Button variant="danger" size="sm" pending={remove.isPending} onClick={() => remove.mutate()}>Confirm delete</Button>
            ) : (
              <Button variant="secondary" size="sm" onClick={() => setConfirmDelete(true)}>Delete</Button>
            )}
          </div>
        ) : null}
      </div>
      {editing ? (
        <EndpointForm initial={fields} events={events} label={`Edit ${e.url}`} submitLabel="Save" pending={update.isPending} onSubmit={(f) => update.mutate(f)} onCancel={() => setEditing(false)} />
      ) : null}
      <Deliveries rows={e.deliveries} canManage={canManage} />
    </section>
  );
}

export function WebhooksPanel({ page, canManage }: { page: WebhooksPage; canManage: boolean }) {
  const toast = useToast();
  const [refreshing, refresh] = useRefresh();
  const [secret, setSecret] = useState<{ url: string; value: string } | null>(null);
  const [formKey, setFormKey] = useState(0);
  const create = useMutation({
    mutationFn: (f: Fields) => unwrap(createWebhookEndpoint(f)),
    onSuccess: (r) => {
      setSecret({ url: r.endpoint.url, value: r.secret });
      setFormKey((k) => k + 1);
      toast.success("Webhook endpoint added.");
      refresh();
    },
    onError: (e) => toast.error(e.message),
  });
  return (
    <>
      {secret ? <SecretOnce title={`Signing secret of ${secret.url}`} value={secret.value} note={SECRET_NOTE} onDone={() => { setSecret(null); create.reset(); }} /> : null}
      {canManage ? (
        <EndpointForm
          key={formKey}
          initial={{ url: "", description: "", events: [], enabled: true }}
          events={page.events}
          label="Add a webhook endpoint"
          submitLabel="Add endpoint"
          pending={create.isPending || refreshing}
          onSubmit={(f) => create.mutate(f)}
        />
      ) : null}
      {page.endpoints.length === 0 ? (
        <EmptyState title="No webhook endpoints yet">Add one above to be told when skills change state, persona proposals arrive, ledger procedures qualify or are suspended, or a background job dies.</EmptyState>
      ) : (
        page.endpoints.map((e) => <EndpointCard key={e.id} endpoint={e} events={page.events} canManage={canManage} onSecret={setSecret} />)
      )}
    </>
  );
}
