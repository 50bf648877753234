import Link from "@/components/ui/link";
import { EmptyState } from "@/components/ui/empty-state";
import { buttonClasses } from "@/components/ui/button";

/** What a console 404 says, inside the console frame: a missing record or an unknown address. */
export function NotFoundNotice() {
  return (
    <EmptyState
      title="Not found"
      action={
        <Link href="/" className={buttonClasses("secondary")}>
          Go to the inbox
        </Link>
      }
    >
      Nothing is recorded under this address. It may have been mistyped, or the record belongs to another agent.
    </EmptyState>
  );
}
