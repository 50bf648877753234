"use client";
// Focus goes back where it was when a modal dialog closes, however it closes: by close(), by
// Escape, or by the caller unmounting it while open (the browser restores focus only on
// close(), so an unmounted dialog used to drop focus to <body>). A trigger that is gone by then
// (an "Activate" button after the activation) hands focus to the page's main region instead.
import { useEffect, type RefObject } from "react";

export function useReturnFocus(ref: RefObject<HTMLDialogElement | null>, open: boolean) {
  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    const dialog = ref.current;
    return () => {
      // Wait for React to finish the update: the trigger may be re-rendered or replaced.
      requestAnimationFrame(() => {
        if (document.activeElement && document.activeElement !== document.body && !dialog?.contains(document.activeElement)) return;
        if (opener?.isConnected) return opener.focus();
        const main = document.getElementById("main");
        if (!main) return;
        if (!main.hasAttribute("tabindex")) main.setAttribute("tabindex", "-1");
        main.focus();
      });
    };
  }, [ref, open]);
}
