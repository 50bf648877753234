import { redirect } from "next/navigation";
import { requireScope } from "@/lib/auth/page-access";

export const dynamic = "force-dynamic";

export default async function SettingsIndex() {
  await requireScope("/settings", "apiKeys:read");
  redirect("/settings/api-keys");
}
