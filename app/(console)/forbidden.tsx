// What a viewer sees on an admin-only page (served with status 403).
import Link from "@/components/ui/link";
import { ErrorState } from "@/components/ui/error-state";
import { buttonClasses } from "@/components/ui/button";

export default function Forbidden() {
  return (
    <ErrorState
      title="403 — You do not have access to this page"
      message="This section is for admins. Viewers can inspect agents, workflows, traces and the read-only learning pages."
      action={
        <Link href="/" className={buttonClasses("secondary")}>
          Go to the inbox
        </Link>
      }
    />
  );
}
