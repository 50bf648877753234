import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";
import { buttonClasses } from "@/components/ui/button";

export default function NotFound() {
  return (
    <EmptyState
      title="Not found"
      action={
        <Link href="/agents" className={buttonClasses("secondary")}>
          Go to Agents
        </Link>
      }
    >
      Nothing is recorded under this address. It may have been mistyped, or the record belongs to another agent.
    </EmptyState>
  );
}
