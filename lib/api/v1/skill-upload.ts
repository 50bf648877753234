// The body of POST /agents/{agent_id}/skills/import: a zip of skill folders or one SKILL.md, by
// its Content-Type. Over the archive cap (10 MB) is a 400 like any other refused archive (issue
// 14: a zip over 10 MB is bad input, nothing written); only past what the route reads at all
// (SKILL_UPLOAD_BYTES) is the body refused unread with 413.
import { readLimited } from "../json-body";
import { problems, ProblemError } from "../problem";
import { ARCHIVE_MAX_BYTES, readArchive, utf8 } from "../../learning/skills-io/archive";
import type { ImportSkillsInput } from "../../learning/operations/import-skills";
import { v1 } from "./contract";
import { SKILL_UPLOAD_BYTES } from "./limits";

const ZIP = /^application\/(?:zip|x-zip-compressed)\s*(?:;|$)/i;
const MARKDOWN = /^text\/markdown\s*(?:;|$)/i;

export async function readSkillUpload(req: Request): Promise<Omit<ImportSkillsInput, "agentId">> {
  const type = req.headers.get("content-type") ?? "";
  const zip = ZIP.test(type);
  if (!zip && !MARKDOWN.test(type)) {
    throw new ProblemError("unsupported_media_type", `Send ${Object.keys(v1.importSkills.upload.types).join(" or ")} as the Content-Type.`);
  }
  if (Number(req.headers.get("content-length") ?? "0") > SKILL_UPLOAD_BYTES) throw problems.tooLarge(SKILL_UPLOAD_BYTES);
  const bytes = await readLimited(req, SKILL_UPLOAD_BYTES);
  if (bytes.length === 0) throw problems.validation("The request body is empty.");
  if (bytes.length > ARCHIVE_MAX_BYTES) throw problems.validation(`The upload was refused: it is over ${ARCHIVE_MAX_BYTES / 1024 / 1024} MB. Nothing was imported.`);
  if (!zip) return { format: "markdown", files: [{ path: "SKILL.md", folder: null, text: utf8(bytes) }] };
  const archive = await readArchive(bytes);
  return { format: "zip", files: archive.skills, ignored: archive.ignored };
}
