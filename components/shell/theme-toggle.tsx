"use client";
// Light / dark switch. The choice is kept in localStorage under the key the root layout's
// pre-paint script reads, so reloads never flash the other theme. The toggle also applies the
// stored choice when it mounts: pages rendered entirely in the browser (Next's 403 and 404
// responses) never ran that script.
import { useEffect, useSyncExternalStore } from "react";

export const THEME_KEY = "proctor-theme";

function storedPrefersDark(): boolean {
  try {
    const t = localStorage.getItem(THEME_KEY);
    return t === "dark" || (!t && matchMedia("(prefers-color-scheme: dark)").matches);
  } catch {
    return document.documentElement.classList.contains("dark");
  }
}

// The theme lives in the root element's class (the pre-paint script, the effect below and the
// toggle all set it there); the button shows it by watching that attribute.
function subscribeToTheme(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  return () => observer.disconnect();
}
const pageIsDark = () => document.documentElement.classList.contains("dark");

export function ThemeToggle() {
  // Null on the server and while hydrating: the server cannot know the reader's choice.
  const dark = useSyncExternalStore<boolean | null>(subscribeToTheme, pageIsDark, () => null);
  useEffect(() => {
    document.documentElement.classList.toggle("dark", storedPrefersDark());
  }, []);
  function toggle() {
    const next = !document.documentElement.classList.contains("dark");
    document.documentElement.classList.toggle("dark", next);
    try {
      localStorage.setItem(THEME_KEY, next ? "dark" : "light");
    } catch {
      // Private mode: the choice lasts for this page only.
    }
  }
  return (
    <button
      type="button"
      onClick={toggle}
      aria-pressed={dark ?? undefined}
      aria-label="Dark mode"
      title={dark ? "Switch to light mode" : "Switch to dark mode"}
      className="rounded-md p-2 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-300 dark:hover:bg-slate-800"
    >
      <span aria-hidden>{dark ? "☀" : "☾"}</span>
    </button>
  );
}
