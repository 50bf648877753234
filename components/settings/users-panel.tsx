"use client";
// List users (GET /api/console/users) with their last sign-in; create, change roles, deactivate
// and reactivate, sign out everywhere, reset a password (server actions). Every change asks for a reason (it goes
// to the audit log) and waits for the server's answer.
import { userRowId } from "@/lib/console/links";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { createUser, resetPassword, signOutEverywhere, updateUser } from "@/lib/actions/users";
import { unwrap } from "@/lib/actions/client";
import { fetchJson } from "@/lib/api/browser-fetch";
import type { UserView } from "@/lib/auth/users";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { DataTable } from "../ui/table";
import { QueryView } from "../ui/query-view";
import { LocalTime } from "../ui/local-time";
import { useToast } from "../ui/toast";
import { SecretOnce } from "./secret-once";
import { fieldClass, labelClass } from "./form-styles";

const KEYS = ["console", "users"] as const;
type Role = "ADMIN" | "VIEWER";
type Change = { user: UserView; role?: Role; active?: boolean };

function describe(c: Change): { title: string; confirm: string; danger: boolean } {
  if (c.active === false) return { title: `Deactivate ${c.user.email}?`, confirm: "Deactivate", danger: true };
  if (c.active === true) return { title: `Reactivate ${c.user.email}?`, confirm: "Reactivate", danger: false };
  return { title: `Make ${c.user.email} ${c.role === "ADMIN" ? "an admin" : "a viewer"}?`, confirm: "Change role", danger: c.role !== "ADMIN" };
}

export function UsersPanel({ currentUserId }: { currentUserId: string }) {
  const qc = useQueryClient();
  const toast = useToast();
  const list = useQuery({ queryKey: KEYS, queryFn: () => fetchJson<{ users: UserView[] }>("/api/console/users") });
  const [form, setForm] = useState({ email: "", name: "", role: "VIEWER" as Role, password: "" });
  const [generated, setGenerated] = useState<{ email: string; password: string } | null>(null);
  const [change, setChange] = useState<Change | null>(null);
  const [ending, setEnding] = useState<UserView | null>(null);
  const [resetting, setResetting] = useState<UserView | null>(null);

  const create = useMutation({
    mutationFn: () =>
      unwrap(createUser({ email: form.email, role: form.role, ...(form.name.trim() ? { name: form.name } : {}), ...(form.password ? { password: form.password } : {}) })),
    onSuccess: (r) => {
      if (r.generated_password) setGenerated({ email: r.user.email, password: r.generated_password });
      setForm({ email: "", name: "", role: "VIEWER", password: "" });
      toast.success(`User ${r.user.email} created.`);
      void qc.invalidateQueries({ queryKey: KEYS });
    },
    onError: (e) => toast.error(e.message),
  });
  const update = useMutation({
    mutationFn: (v: { id: string; role?: Role; active?: boolean; reason: string }) =>
      unwrap(updateUser(v)),
    onSuccess: (r) => {
      toast.success(`${r.user.email} is now ${r.user.active ? r.user.role.toLowerCase() : "deactivated"}.`);
      setChange(null);
      void qc.invalidateQueries({ queryKey: KEYS });
    },
    onError: (e) => toast.error(e.message),
  });
  const endSessions = useMutation({
    mutationFn: (v: { id: string; reason: string }) => unwrap(signOutEverywhere(v)),
    onSuccess: (r) => {
      setEnding(null);
      // Your own sessions end too, this one included.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full load on purpose: the client router's cache holds the signed-in session's pages
      if (r.user.id === currentUserId) return window.location.assign("/login");
      toast.success(`${r.user.email} is signed out everywhere.`);
    },
    onError: (e) => toast.error(e.message),
  });

  const reset = useMutation({
    mutationFn: (v: { id: string; reason: string }) => unwrap(resetPassword(v)),
    onSuccess: (r) => {
      setResetting(null);
      setGenerated({ email: r.user.email, password: r.generated_password });
      toast.success(`${r.user.email} has a new password and is signed out everywhere.`);
    },
    onError: (e) => toast.error(e.message),
  });

  const text = change ? describe(change) : null;
  return (
    <>
      {generated ? <SecretOnce title={`Password of ${generated.email}`} value={generated.password} onDone={() => { setGenerated(null); create.reset(); reset.reset(); }} /> : null}
      <form
        aria-label="Create a user"
        className="mb-8 grid gap-4 rounded-lg border border-slate-200 p-4 sm:grid-cols-2 lg:grid-cols-[2fr_1.5fr_1fr_2fr_auto] lg:items-end dark:border-slate-800"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <label className={labelClass}>
          Email
          <input className={fieldClass} type="email" required value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
        </label>
        <label className={labelClass}>
          Name <span className="font-normal text-slate-500">(optional)</span>
          <input className={fieldClass} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </label>
        <label className={labelClass}>
          Role
          <select className={fieldClass} value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as Role })}>
            <option value="VIEWER">Viewer</option>
            <option value="ADMIN">Admin</option>
          </select>
        </label>
        <label className={labelClass}>
          Initial password <span className="font-normal text-slate-500">(blank: generate one)</span>
          <input className={fieldClass} type="password" autoComplete="new-password" minLength={12} value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} />
        </label>
        <Button type="submit" pending={create.isPending} disabled={!form.email.trim()}>
          Create user
        </Button>
      </form>

      <QueryView query={list} noun="users">
        {(data) => (
          <DataTable
            caption="Users"
            rows={data.users}
            rowKey={(u) => u.id}
            rowId={(u) => userRowId(u.id)}
            columns={[
              {
                key: "email",
                header: "User",
                cell: (u) => (
                  <span>
                    <span className="font-medium">{u.email}</span>
                    {u.id === currentUserId ? <span className="ml-1 text-xs text-slate-500">(you)</span> : null}
                    {u.name ? <span className="block text-xs text-slate-500">{u.name}</span> : null}
                  </span>
                ),
              },
              {
                key: "role",
                header: "Role",
                cell: (u) => (
                  <select
                    aria-label={`Role of ${u.email}`}
                    value={u.role}
                    disabled={u.id === currentUserId || !u.active}
                    title={u.id === currentUserId ? "You cannot change your own role" : undefined}
                    onChange={(e) => setChange({ user: u, role: e.target.value as Role })}
                    className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-60 dark:border-slate-700 dark:bg-slate-950"
                  >
                    <option value="VIEWER">Viewer</option>
                    <option value="ADMIN">Admin</option>
                  </select>
                ),
              },
              { key: "status", header: "Status", cell: (u) => <Badge status={u.active ? "active" : "inactive"} /> },
              { key: "login", header: "Last sign-in", cell: (u) => <LocalTime iso={u.last_login_at} fallback="never" /> },
              { key: "created", header: "Created", cell: (u) => <LocalTime iso={u.created_at} /> },
              {
                key: "actions",
                header: <span className="sr-only">Actions</span>,
                cell: (u) => (
                  <span className="flex justify-end gap-2">
                    {u.active ? (
                      <Button variant="secondary" size="sm" onClick={() => setEnding(u)}>
                        Sign out everywhere
                      </Button>
                    ) : null}
                    {u.id === currentUserId ? null : (
                      <>
                        <Button variant="secondary" size="sm" onClick={() => setResetting(u)}>
                          Reset password
                        </Button>
                        <Button variant="secondary" size="sm" onClick={() => setChange({ user: u, active: !u.active })}>
                          {u.active ? "Deactivate" : "Reactivate"}
                        </Button>
                      </>
                    )}
                  </span>
                ),
              },
            ]}
          />
        )}
      </QueryView>
      <ConfirmDialog
        open={change !== null}
        title={text?.title ?? ""}
        description={
          change?.active === false
            ? "They are signed out at once and cannot sign in until reactivated."
            : change?.role
              ? "Their sessions end at once; they sign in again with the new role."
              : undefined
        }
        confirmLabel={text?.confirm ?? "Confirm"}
        danger={text?.danger}
        pending={update.isPending}
        onCancel={() => setChange(null)}
        onConfirm={(reason) => change && update.mutate({ id: change.user.id, role: change.role, active: change.active, reason })}
      />
      <ConfirmDialog
        open={ending !== null}
        title={`Sign ${ending?.email ?? ""} out everywhere?`}
        description={
          ending?.id === currentUserId
            ? "Every session of yours ends at once, this one included: you will sign in again."
            : "Every session of theirs ends at once, on every device. They can sign in again."
        }
        confirmLabel="Sign out everywhere"
        danger
        pending={endSessions.isPending}
        onCancel={() => setEnding(null)}
        onConfirm={(reason) => ending && endSessions.mutate({ id: ending.id, reason })}
      />
      <ConfirmDialog
        open={resetting !== null}
        title={`Reset the password of ${resetting?.email ?? ""}?`}
        description="A new password is generated and shown here once; their old password stops working and every session of theirs ends."
        confirmLabel="Reset password"
        danger
        pending={reset.isPending}
        onCancel={() => setResetting(null)}
        onConfirm={(reason) => resetting && reset.mutate({ id: resetting.id, reason })}
      />
    </>
  );
}
