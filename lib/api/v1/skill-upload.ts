// The body of POST /agents/{agent_id}/skills/import, as the route wrapper read it (rawBody: a
// zip of skill folders or one SKILL.md, by its Content-Type). Over the archive cap (10 MB) is a
// 400 like any other refused archive (a zip over 10 MB is bad input and nothing is written: README
// "Sending runs", skills import);
// only past what the route reads at all (SKILL_UPLOAD_BYTES) is the body refused unread with 413.
import { problems } from "../problem";
import type { RawBody } from "../raw-body";
import { ARCHIVE_MAX_BYTES, readArchive } from "../../learning/skills-io/archive";
import type { ImportSkillsInput } from "../../learning/operations/import-skills";

export async function skillUpload({ type, bytes }: RawBody): Promise<Omit<ImportSkillsInput, "agentId">> {
  if (bytes.length === 0) throw problems.validation("The request body is empty.");
  if (bytes.length > ARCHIVE_MAX_BYTES) throw problems.validation(`The upload was refused: it is over ${ARCHIVE_MAX_BYTES / 1024 / 1024} MB. Nothing was imported.`);
  if (type !== "application/zip") return { format: "markdown", folders: [{ file: "SKILL.md", folder: null, files: [{ path: "SKILL.md", bytes, executable: false }] }] };
  const folders = await readArchive(bytes);
  return { format: "zip", folders: folders.map((f) => ({ file: `${f.root}/SKILL.md`, folder: f.folder, files: f.files })) };
}
