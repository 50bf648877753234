// Preformatted JSON or text (tool arguments, results, curl examples), scrollable, never wider than the page.
export function CodeBlock({ value, label }: { value: unknown; label?: string }) {
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  return (
    <pre
      role="region"
      aria-label={label ?? "Code"}
      tabIndex={0}
      className="max-h-96 overflow-auto focus-visible:outline-2 focus-visible:outline-indigo-500 rounded-md bg-slate-100 p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap break-all text-slate-800 dark:bg-slate-900 dark:text-slate-200"
    >
      {text}
    </pre>
  );
}
