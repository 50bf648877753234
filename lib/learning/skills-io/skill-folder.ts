// An Agent Skills folder as Proctor keeps it: every file byte for byte with its size, sha256 and
// executable bit, and what the review needs to know of each (a script the agent could run, text
// the console can show). The limits hold per skill, inside the archive's own cap
// (./archive.ts#ARCHIVE_MAX_BYTES): the largest Apache-2.0 skill of the public anthropics/skills
// collection bundles 83 files and 5.5 MB, its largest file is 242 KB.
import { createHash } from "node:crypto";
import { utf8 } from "./archive";

/** Files in one skill folder, SKILL.md included. */
export const SKILL_MAX_FILES = 200;
/** Bytes of one file. */
export const SKILL_FILE_MAX_BYTES = 2 * 1024 * 1024;
/** Bytes of all files of one skill. */
export const SKILL_MAX_BYTES = 8 * 1024 * 1024;
/** Characters of a path inside the folder. */
export const SKILL_PATH_MAX_CHARS = 300;

export const SKILL_FILE = "SKILL.md";

/** Extensions of files an agent could run: each needs a reviewer's explicit confirmation. */
const SCRIPT_EXTENSIONS = new Set(["py", "sh", "bash", "zsh", "js", "mjs", "cjs", "ts", "rb", "pl", "ps1", "bat", "cmd"]);

export type FolderFile = { path: string; bytes: Uint8Array; executable: boolean };

export type KeptFile = FolderFile & { sha256: string; size: number; script: boolean; text: string | null };

export const sha256Hex = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Why `file` is a script, or null: its executable bit, its extension, or a `#!` first line. */
export function scriptReason(file: { path: string; bytes: Uint8Array; executable: boolean }): string | null {
  if (file.executable) return "executable bit";
  const ext = /\.([A-Za-z0-9]+)$/.exec(file.path)?.[1]?.toLowerCase();
  if (ext && SCRIPT_EXTENSIONS.has(ext)) return `.${ext} file`;
  if (file.bytes[0] === 0x23 && file.bytes[1] === 0x21) return "shebang";
  return null;
}

/** The file's text when it is UTF-8 without NUL bytes, else null (listed with size and hash only). */
export function fileText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  return utf8(bytes);
}

export function keepFile(f: FolderFile): KeptFile {
  return { ...f, sha256: sha256Hex(f.bytes), size: f.bytes.length, script: scriptReason(f) !== null, text: fileText(f.bytes) };
}

/** Why the folder cannot be kept (over a limit, a path too long), or []. */
export function folderProblems(files: readonly FolderFile[]): string[] {
  const out: string[] = [];
  if (files.length > SKILL_MAX_FILES) out.push(`the folder has ${files.length} files; the limit is ${SKILL_MAX_FILES} per skill`);
  const total = files.reduce((a, f) => a + f.bytes.length, 0);
  if (total > SKILL_MAX_BYTES) out.push(`the folder holds ${mb(total)}; the limit is ${mb(SKILL_MAX_BYTES)} per skill`);
  for (const f of files) {
    if (f.bytes.length > SKILL_FILE_MAX_BYTES) out.push(`'${clip(f.path)}' is ${mb(f.bytes.length)}; the limit is ${mb(SKILL_FILE_MAX_BYTES)} per file`);
    if (f.path.length > SKILL_PATH_MAX_CHARS) out.push(`'${clip(f.path)}' has a path over ${SKILL_PATH_MAX_CHARS} characters`);
  }
  return out;
}

/**
 * The folder's identity: sha256 over its files' paths and sha256s in path order. The same folder
 * imported again has the same digest, whatever order the archive listed it in.
 */
export function folderDigest(files: readonly { path: string; sha256: string }[]): string {
  const lines = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).map((f) => `${f.sha256}  ${f.path}\n`);
  return createHash("sha256").update(lines.join(""), "utf8").digest("hex");
}

const mb = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`);
const clip = (s: string) => (s.length > 80 ? `${s.slice(0, 77)}…` : s);
