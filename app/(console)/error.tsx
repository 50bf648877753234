"use client";
// Unexpected failures while rendering a console page: say so and offer a retry. The digest
// lets an admin find the server log line; no internal detail is shown.
import { ErrorState } from "@/components/ui/error-state";
import { Button } from "@/components/ui/button";

export default function ConsoleError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <ErrorState
      title="This page could not be loaded"
      message={`The server could not answer just now${error.digest ? ` (reference ${error.digest})` : ""}. Try again in a moment.`}
      action={<Button onClick={reset}>Try again</Button>}
    />
  );
}
