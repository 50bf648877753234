"use client";
// The signed-in user's scopes for components deep in a page (links to records, say) that must
// not lead a user to a page that would refuse them. The shell provides them; the server checks
// every page and action again, so this only decides what is offered.
import { createContext, useContext } from "react";
import type { Scope } from "@/lib/auth/access";

const Scopes = createContext<readonly Scope[]>([]);

export const ScopesProvider = Scopes.Provider;

/** Whether the signed-in user holds `scope` (false outside the console's shell). */
export function useCan(scope: Scope): boolean {
  return useContext(Scopes).includes(scope);
}
