import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { exportSkills } from "@/lib/learning/skills-io/export-skills";

export const dynamic = "force-dynamic";

export const GET = route(v1.exportSkills, async ({ params, query }) => {
  const { archive } = await exportSkills(db(), params.agent_id, query.status);
  const name = `${params.agent_id.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80)}-skills-${query.status}.zip`;
  return new Response(new Blob([new Uint8Array(archive)]), {
    headers: { "content-type": "application/zip", "content-disposition": `attachment; filename="${name}"`, "cache-control": "no-store" },
  });
});
