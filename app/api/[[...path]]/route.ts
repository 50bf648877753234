// Every path under /api that no route claims: 404 problem+json for any method, not the HTML
// not-found page. (A known path with a method its route lacks: lib/api/gate.ts makes Next's bare
// 405 a problem.)
import { randomUUID } from "node:crypto";
import { problemResponse, problems } from "@/lib/api/problem";

export const dynamic = "force-dynamic";

const unknown = async () => problemResponse(problems.notFound("This API route"), randomUUID());

export { unknown as GET, unknown as POST, unknown as PUT, unknown as PATCH, unknown as DELETE };
