import { redirect } from "next/navigation";
import { requireAdmin } from "@/lib/auth/page-access";

export const dynamic = "force-dynamic";

export default async function SettingsIndex() {
  await requireAdmin("/settings");
  redirect("/settings/api-keys");
}
