"use client";
// Confirmation for decisions that are audited or irreversible: the admin says why (required
// unless the caller makes the reason optional, as for approving a persona suggestion).
// The dialog stays open (reason kept) until the caller closes it, so a server error can be
// fixed and retried without retyping.
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "./button";
import { useReturnFocus } from "./return-focus";

type Props = {
  open: boolean;
  title: string;
  description?: React.ReactNode;
  confirmLabel: string;
  danger?: boolean;
  pending?: boolean;
  /** The decision cannot be taken now (the description says why): confirm stays disabled. */
  blocked?: boolean;
  /** null: a plain confirmation without a reason field (for decisions that record none). */
  reasonLabel?: string | null;
  /** false: confirm works with an empty reason (default true). */
  reasonRequired?: boolean;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
};

export function ConfirmDialog({ open, title, description, confirmLabel, danger, pending, blocked, reasonLabel = "Reason (recorded in the audit log)", reasonRequired = true, onConfirm, onCancel }: Props) {
  const missing = (r: string) => reasonLabel !== null && reasonRequired && !r.trim();
  const ref = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState("");
  const id = useId();
  useReturnFocus(ref, open);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      setReason("");
      d.showModal();
    } else if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={`${id}-title`}
      onCancel={(e) => {
        e.preventDefault();
        if (!pending) onCancel();
      }}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <form
        className="space-y-4 p-5"
        onSubmit={(e) => {
          e.preventDefault();
          if (!missing(reason) && !blocked) onConfirm(reason.trim());
        }}
      >
        <h2 id={`${id}-title`} className="text-base font-semibold">
          {title}
        </h2>
        {description ? <div className="text-sm text-slate-600 dark:text-slate-400">{description}</div> : null}
        {reasonLabel === null ? null : (
        <label className="block text-sm font-medium">
          {reasonLabel}
          <textarea
            required={reasonRequired}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            maxLength={500}
            rows={3}
            className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-normal focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-700 dark:bg-slate-950"
          />
        </label>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" variant={danger ? "danger" : "primary"} pending={pending} disabled={missing(reason) || blocked}>
            {confirmLabel}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
