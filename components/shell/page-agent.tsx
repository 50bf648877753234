"use client";
// A page about one agent's record whose URL does not name the agent (a run page) declares it
// here, so the switcher and the sidebar links show that agent rather than "All agents".
import { useLayoutEffect, useSyncExternalStore } from "react";

let current: string | null = null;
const listeners = new Set<() => void>();
const set = (v: string | null) => {
  current = v;
  for (const l of listeners) l();
};
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** The agent the current page declared, or null. */
export const usePageAgent = () => useSyncExternalStore(subscribe, () => current, () => null);

/** Declared before the browser paints (a layout effect), so a client-side navigation shows no "All agents" first. */
export function PageAgent({ id }: { id: string }) {
  useLayoutEffect(() => {
    set(id);
    return () => set(null);
  }, [id]);
  return null;
}
