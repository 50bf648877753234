// Console: the sidebar's inbox counts for another agent than the page was rendered for (the
// agent switcher changes the scope without re-rendering the frame), read as the frame reads them.
import { z } from "zod";
import { route } from "@/lib/api/handler";
import { can } from "@/lib/auth/access";
import { readDb } from "@/lib/db/client";
import { inboxCounts } from "@/lib/console/inbox";

export const dynamic = "force-dynamic";

const query = z.object({ agent: z.string().trim().max(200).optional() });

export const GET = route({ auth: "session", access: "learning:read", query }, async ({ query, actor }) =>
  inboxCounts(await readDb(), (scope) => can(actor, scope), query.agent || undefined),
);
