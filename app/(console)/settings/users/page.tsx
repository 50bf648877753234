// Settings → Users: who may sign in to the console, and as what.
import { PageHeader } from "@/components/ui/page-header";
import { UsersPanel } from "@/components/settings/users-panel";
import { requireScope } from "@/lib/auth/page-access";

export const dynamic = "force-dynamic";

export default async function UsersPage() {
  const me = await requireScope("/settings/users", "users:read");
  return (
    <>
      <PageHeader
        title="Users"
        description="Admins can change everything; viewers inspect agents, runs and traces only. Single sign-on users must be added here first."
      />
      <UsersPanel currentUserId={me.id} />
    </>
  );
}
