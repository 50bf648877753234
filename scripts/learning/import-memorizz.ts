// `npm run import:memorizz -- <file> [--agent <id>]`: imports MemoRizz workflow and skill
// documents (a JSON array or JSON Lines) into agents already declared here, and prints the counts
// and each refused line with its reason. Running it again imports nothing twice. Uses DATABASE_URL.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { systemAuditContext } from "../../lib/audit/record.ts";
import { createPrismaClient } from "../../lib/db/prisma.ts";
import { readMemorizzFile } from "../../lib/learning/skills-io/memorizz-documents.ts";
import { importMemorizz } from "../../lib/learning/operations/import-memorizz.ts";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { agent: { type: "string" } } });
const url = process.env.DATABASE_URL;
if (positionals.length !== 1 || !url) {
  console.error(url ? "usage: npm run import:memorizz -- <file.json|file.jsonl> [--agent <id for documents without agent_id>]" : "DATABASE_URL is not set");
  process.exit(2);
}
const read = readMemorizzFile(readFileSync(positionals[0], "utf8"));
const db = createPrismaClient(url, 2);
try {
  const report = await importMemorizz(db, { documents: read.documents, agentId: values.agent }, systemAuditContext("import:memorizz"));
  const refused = [...read.refused, ...report.refused].sort((a, b) => a.line - b.line);
  for (const r of refused) console.log(`line ${r.line}: refused: ${r.reason}`);
  console.log(
    `workflows: ${report.workflows.imported} imported, ${report.workflows.already} already imported; ` +
      `skills: ${report.skills.imported} imported, ${report.skills.already} already imported; refused: ${refused.length}`,
  );
} finally {
  await db.$disconnect();
}
