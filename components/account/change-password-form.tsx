"use client";
// Change the own password: the current one, the new one twice, and whether to end the other
// sessions. Errors are shown beside the field they concern (and read out); the form keeps its
// input on an error so it can be fixed and sent again.
import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { changeOwnPassword } from "@/lib/actions/own-account";
import { ActionFailure, unwrap } from "@/lib/actions/client";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/users";
import { Button } from "../ui/button";
import { useToast } from "../ui/toast";
import { fieldClass, labelClass } from "../settings/form-styles";

const EMPTY = { current_password: "", new_password: "", confirm: "", end_other_sessions: true };
type Field = "current_password" | "new_password" | "confirm";

export function ChangePasswordForm() {
  const toast = useToast();
  const id = useId();
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const change = useMutation({
    mutationFn: () => unwrap(changeOwnPassword({ current_password: form.current_password, new_password: form.new_password, end_other_sessions: form.end_other_sessions })),
    onSuccess: (r) => {
      setForm(EMPTY);
      setErrors({});
      const ended = r.other_sessions_ended;
      toast.success(`Password changed.${ended > 0 ? ` ${ended} other ${ended === 1 ? "session was" : "sessions were"} signed out.` : ""}`);
    },
    onError: (e) => {
      const fields = e instanceof ActionFailure ? (e.error.fields ?? []) : [];
      setErrors(Object.fromEntries(fields.map((f) => [f.path.slice(1), `${fieldName(f.path.slice(1))} ${f.message}.`])));
      toast.error(e instanceof ActionFailure ? e.error.message : e.message);
    },
  });
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (form.new_password !== form.confirm) return setErrors({ confirm: "The two new passwords differ." });
    setErrors({});
    change.mutate();
  };
  const field = (name: Field, label: string, autoComplete: string) => (
    <label className={labelClass}>
      {label}
      <input
        className={fieldClass}
        type="password"
        name={name}
        required
        autoComplete={autoComplete}
        minLength={name === "current_password" ? undefined : MIN_PASSWORD_LENGTH}
        value={form[name]}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${id}-${name}` : undefined}
        onChange={(e) => setForm({ ...form, [name]: e.target.value })}
      />
      {errors[name] ? (
        <span id={`${id}-${name}`} role="alert" className="mt-1 block text-sm font-normal text-red-700 dark:text-red-300">
          {errors[name]}
        </span>
      ) : null}
    </label>
  );
  return (
    <form aria-label="Change password" className="grid max-w-md gap-4" onSubmit={submit}>
      {field("current_password", "Current password", "current-password")}
      {field("new_password", `New password (at least ${MIN_PASSWORD_LENGTH} characters)`, "new-password")}
      {field("confirm", "New password again", "new-password")}
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" className="mt-0.5" checked={form.end_other_sessions} onChange={(e) => setForm({ ...form, end_other_sessions: e.target.checked })} />
        <span>Sign out my other sessions (every other browser and device); this one stays signed in.</span>
      </label>
      <div>
        <Button type="submit" pending={change.isPending}>
          Change password
        </Button>
      </div>
    </form>
  );
}

function fieldName(path: string): string {
  return path === "current_password" ? "The current password" : path === "new_password" ? "The new password" : "This field";
}
