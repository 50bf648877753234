"use client";
// A secret the server will never show again (an API key, a generated password), in a modal
// dialog: it leaves the screen, and the caller's state, when the dialog closes (button or Escape).
import { useEffect, useId, useRef } from "react";
import { Button } from "../ui/button";
import { CopyButton } from "../ui/copy-button";
import { useReturnFocus } from "../ui/return-focus";

const HASHED = "Copy it now: it is stored only as a hash and will not be shown again.";

export function SecretOnce({ title, value, onDone, note = HASHED }: { title: string; value: string; onDone: () => void; note?: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useReturnFocus(ref, true);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby={`${id}-title`}
      onClose={onDone}
      className="m-auto w-[min(36rem,calc(100vw-2rem))] rounded-lg border border-amber-300 bg-amber-50 p-4 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:border-amber-800 dark:bg-amber-950 dark:text-slate-100"
    >
      <p id={`${id}-title`} className="text-sm font-semibold text-amber-900 dark:text-amber-200">
        {title}
      </p>
      <p className="mt-1 text-sm text-amber-900 dark:text-amber-200">{note}</p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code data-testid="secret-value" className="min-w-0 rounded bg-white px-2 py-1 font-mono text-sm break-all dark:bg-slate-900">
          {value}
        </code>
        <CopyButton value={value} />
        <Button variant="ghost" size="sm" onClick={() => ref.current?.close()}>
          I have stored it
        </Button>
      </div>
    </dialog>
  );
}
