// Your account: change your own password (the user menu's "Change password").
import { PageHeader } from "@/components/ui/page-header";
import { ChangePasswordForm } from "@/components/account/change-password-form";
import { requireScope } from "@/lib/auth/page-access";

export const dynamic = "force-dynamic";

export default async function AccountPage() {
  const me = await requireScope("/account", "own:password");
  return (
    <>
      <PageHeader title="Your account" description={`Signed in as ${me.label}. A new password takes effect at once; your current password is required.`} />
      <ChangePasswordForm />
    </>
  );
}
