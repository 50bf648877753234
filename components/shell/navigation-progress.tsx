"use client";
// A bar along the top edge from the moment an in-console link is followed until the next page's
// URL is current: a page that takes a moment should not look like a click that did nothing.
// Client-side on purpose: a loading.tsx boundary would make Next stream every console page, and
// a streamed page can no longer answer 403 or 404 as its status.
import { usePathname, useSearchParams } from "next/navigation";
import { Suspense, useEffect, useState } from "react";

function Progress() {
  const pathname = usePathname();
  const search = useSearchParams();
  const [pending, setPending] = useState(false);
  // The next page's URL ends the bar (state adjusted while rendering, not in an effect).
  const url = `${pathname}?${search}`;
  const [renderedUrl, setRenderedUrl] = useState(url);
  if (renderedUrl !== url) {
    setRenderedUrl(url);
    setPending(false);
  }
  useEffect(() => {
    // Bubbling to the document: a guard that cancels the navigation (unsaved settings) stops the event first.
    const onClick = (e: MouseEvent) => {
      if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const link = (e.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
      if (!link || link.target === "_blank" || link.hasAttribute("download")) return;
      const to = new URL(link.href, window.location.href);
      if (to.origin !== window.location.origin || (to.pathname === window.location.pathname && to.search === window.location.search)) return;
      if (to.pathname.startsWith("/api/")) return;
      setPending(true);
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, []);
  if (!pending) return null;
  return (
    <div role="progressbar" aria-label="Loading the page" className="fixed inset-x-0 top-0 z-50 h-0.5 overflow-hidden bg-indigo-100 dark:bg-indigo-950">
      <div className="h-full w-1/3 animate-[console-loading_1s_ease-in-out_infinite] bg-indigo-500" />
    </div>
  );
}

export function NavigationProgress() {
  return (
    <Suspense fallback={null}>
      <Progress />
    </Suspense>
  );
}
