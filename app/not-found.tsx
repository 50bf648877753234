// An address no route serves. A signed-in user gets the 404 inside the console frame, with the
// sidebar and a link home; anyone else (the proxy sends anonymous page views to sign in
// first, so only a deactivated session lands here) gets the bare notice.
import { currentUser } from "@/lib/auth/page-access";
import { NotFoundNotice } from "@/components/shell/not-found-notice";
import { ConsoleFrame } from "./console-frame";

export const dynamic = "force-dynamic";

export default async function NotFound() {
  const user = await currentUser();
  if (!user) {
    return (
      <main className="mx-auto max-w-xl px-4 py-16">
        <NotFoundNotice />
      </main>
    );
  }
  return (
    <ConsoleFrame user={user}>
      <NotFoundNotice />
    </ConsoleFrame>
  );
}
