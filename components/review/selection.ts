"use client";
// Selection of a row in a server-rendered review list: the selection lives in the URL (the
// server renders the detail for it); the row highlights at once while the detail loads, and
// on narrow screens, where the detail sits below the list, a click scrolls to it.
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { useToast } from "../ui/toast";
import { useListKeys } from "./use-list-keys";

export type SelectableRow = { key: string; selectHref: string };

export function useUrlSelection<R extends SelectableRow>(opts: {
  rows: R[];
  selected: string | null;
  detailId: string;
  filterId: string;
  copyValue: (row: R) => string | null;
  copyLabel: string;
  /** More single-key shortcuts of this list. */
  keys?: Record<string, () => void>;
}) {
  const router = useRouter();
  const toast = useToast();
  // A row picked here highlights at once; when the URL's selection changes, it wins (state
  // adjusted while rendering, not in an effect, so no frame shows the stale row).
  const [local, setLocal] = useState(opts.selected);
  const [urlSelected, setUrlSelected] = useState(opts.selected);
  if (urlSelected !== opts.selected) {
    setUrlSelected(opts.selected);
    setLocal(opts.selected);
  }
  const [loading, start] = useTransition();
  const scrollOnArrive = useRef(false);
  useEffect(() => {
    if (scrollOnArrive.current && window.matchMedia("(max-width: 1279px)").matches) {
      document.getElementById(opts.detailId)?.scrollIntoView({ block: "start" });
    }
    scrollOnArrive.current = false;
  }, [opts.selected, opts.detailId]);

  const index = opts.rows.findIndex((r) => r.key === local);

  function go(i: number) {
    const row = opts.rows[i];
    if (!row) return;
    setLocal(row.key);
    document.querySelector<HTMLElement>(`[data-row-key="${CSS.escape(row.key)}"] a`)?.focus({ preventScroll: false });
    start(() => router.replace(row.selectHref, { scroll: false }));
  }

  useListKeys({
    filterId: opts.filterId,
    extra: opts.keys,
    move: (d) => go(index < 0 ? 0 : Math.min(opts.rows.length - 1, Math.max(0, index + d))),
    copy: async () => {
      const row = opts.rows[index];
      const value = row ? opts.copyValue(row) : null;
      if (!value) return;
      try {
        await navigator.clipboard.writeText(value);
        toast.success(`${opts.copyLabel} copied.`);
      } catch {
        toast.error(`The ${opts.copyLabel.toLowerCase()} could not be copied: the browser refused clipboard access.`);
      }
    },
  });

  return {
    selectedKey: local,
    loading,
    /** For the row link's onClick (the link itself navigates). */
    onPick: (row: R) => {
      setLocal(row.key);
      scrollOnArrive.current = true;
    },
  };
}
