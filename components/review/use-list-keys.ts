"use client";
// Review-list shortcuts: j/k move the selection, c copies, / focuses the filter box, and a list
// may add its own single keys (bulk review: x, a, r). They
// never fire while typing in a field, with a modifier held, or while a dialog is open.
import { useEffect, useEffectEvent } from "react";

type Handlers = { move: (delta: 1 | -1) => void; copy: () => void; filterId: string; extra?: Record<string, () => void> };

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return Boolean(el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName)));
}

export function useListKeys(handlers: Handlers) {
  // An effect event: the listener is added once and always calls the latest handlers.
  const onKey = useEffectEvent((e: KeyboardEvent) => {
    if (e.defaultPrevented || e.metaKey || e.ctrlKey || e.altKey || typing(e.target)) return;
    if (document.querySelector("dialog[open]")) return;
    if (e.key === "j" || e.key === "k") {
      e.preventDefault();
      handlers.move(e.key === "j" ? 1 : -1);
    } else if (e.key === "c") {
      e.preventDefault();
      handlers.copy();
    } else if (e.key === "/") {
      e.preventDefault();
      document.getElementById(handlers.filterId)?.focus();
    } else if (handlers.extra && Object.hasOwn(handlers.extra, e.key)) {
      e.preventDefault();
      handlers.extra[e.key]();
    }
  });
  useEffect(() => {
    const listener = (e: KeyboardEvent) => onKey(e);
    document.addEventListener("keydown", listener);
    return () => document.removeEventListener("keydown", listener);
  }, []);
}
