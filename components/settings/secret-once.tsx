"use client";
// A secret the server will never show again (an API key, a generated password).
import { Button } from "../ui/button";
import { CopyButton } from "../ui/copy-button";

const HASHED = "Copy it now: it is stored only as a hash and will not be shown again.";

export function SecretOnce({ title, value, onDone, note = HASHED }: { title: string; value: string; onDone: () => void; note?: string }) {
  return (
    <div role="status" className="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-800 dark:bg-amber-950/60">
      <p className="text-sm font-semibold text-amber-900 dark:text-amber-200">{title}</p>
      <p className="mt-1 text-sm text-amber-900 dark:text-amber-200">{note}</p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code data-testid="secret-value" className="min-w-0 rounded bg-white px-2 py-1 font-mono text-sm break-all dark:bg-slate-900">
          {value}
        </code>
        <CopyButton value={value} />
        <Button variant="ghost" size="sm" onClick={onDone}>
          I have stored it
        </Button>
      </div>
    </div>
  );
}
