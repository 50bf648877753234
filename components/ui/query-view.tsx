"use client";
// A TanStack Query read in its three states: loading, an error with a retry, or its data.
import type { UseQueryResult } from "@tanstack/react-query";
import { Button } from "./button";
import { ErrorState } from "./error-state";

export function QueryView<T>({ query, noun, children }: { query: UseQueryResult<T>; noun: string; children: (data: T) => React.ReactNode }) {
  if (query.isPending) {
    return (
      <p className="text-sm text-slate-500" aria-busy>
        Loading {noun}…
      </p>
    );
  }
  if (query.isError) {
    return <ErrorState title={`The ${noun} could not be loaded`} message={query.error.message} action={<Button onClick={() => void query.refetch()}>Try again</Button>} />;
  }
  return <>{children(query.data)}</>;
}
