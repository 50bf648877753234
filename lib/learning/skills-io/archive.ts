// Skill archives: a zip of `<skill-name>/SKILL.md` folders. Written with fflate (small, in
// memory); read with yauzl, which exposes each entry's external attributes (symlinks), refuses
// absolute and `..` paths itself and stops an entry that inflates past its declared size, so a
// zip bomb costs at most the declared total, which is checked before anything is inflated.
import { zipSync, strToU8 } from "fflate";
import yauzl from "yauzl";
import { Validation } from "../../errors";

/** The cap on an archive: its own size and its total uncompressed size. */
export const ARCHIVE_MAX_BYTES = 10 * 1024 * 1024;
const MAX_ENTRIES = 2000;
const SKILL_FILE = "SKILL.md";
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

export type ArchiveFile = { path: string; folder: string; text: string | null };
export type ArchiveContents = { skills: ArchiveFile[]; ignored: string[] };

/** The zip of `files` (path → text), in the order given, with a fixed timestamp so equal skills give equal bytes. */
export function writeArchive(files: { path: string; text: string }[]): Uint8Array {
  const mtime = new Date("2000-01-01T00:00:00Z");
  return zipSync(Object.fromEntries(files.map((f) => [f.path, [strToU8(f.text), { mtime }]])), { level: 6 });
}

const bad = (message: string) => new Validation(`The archive was refused: ${message}. Nothing was imported.`);

/**
 * The SKILL.md files of an archive with the folder each is in (its last path segment), and the
 * other files found in skill folders (listed, not imported). Throws Validation, before anything
 * is written, for anything that could place a file outside its folder or exhaust memory.
 */
export async function readArchive(bytes: Uint8Array): Promise<ArchiveContents> {
  if (bytes.length > ARCHIVE_MAX_BYTES) throw bad(`it is over ${ARCHIVE_MAX_BYTES / 1024 / 1024} MB`);
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), { lazyEntries: true, validateEntrySizes: true });
  } catch (e) {
    throw bad(`not a readable zip (${short(e)})`);
  }
  if (zip.entryCount > MAX_ENTRIES) throw bad(`more than ${MAX_ENTRIES} entries`);
  const entries: yauzl.Entry[] = [];
  try {
    // yauzl refuses absolute paths, drive letters and `..` segments while listing.
    for await (const entry of zip.eachEntry()) entries.push(entry);
  } catch (e) {
    zip.close();
    throw bad(short(e));
  }
  let declared = 0;
  for (const e of entries) {
    declared += e.uncompressedSize;
    if ((e.externalFileAttributes >>> 16 & S_IFMT) === S_IFLNK) throw bad(`'${clip(e.fileName)}' is a symbolic link`);
    if (e.isEncrypted()) throw bad(`'${clip(e.fileName)}' is encrypted`);
    if (e.fileName.split("/").some((seg) => seg === "." || seg === "..")) throw bad(`'${clip(e.fileName)}' leaves its folder`);
  }
  if (declared > ARCHIVE_MAX_BYTES) throw bad(`its contents are over ${ARCHIVE_MAX_BYTES / 1024 / 1024} MB uncompressed`);

  const files = entries.filter((e) => !e.fileName.endsWith("/"));
  const skillFolders = new Set(files.filter((e) => isSkillFile(e.fileName)).map((e) => dirOf(e.fileName)));
  const outside = files.find((e) => ![...skillFolders].some((dir) => e.fileName.startsWith(`${dir}/`)));
  if (outside) throw bad(`'${clip(outside.fileName)}' is outside a skill folder (<skill-name>/${SKILL_FILE})`);

  const skills: ArchiveFile[] = [];
  const ignored: string[] = [];
  try {
    for (const e of files) {
      if (!isSkillFile(e.fileName)) {
        ignored.push(e.fileName);
        continue;
      }
      const data = await readEntry(zip, e);
      skills.push({ path: e.fileName, folder: dirOf(e.fileName).split("/").pop()!, text: utf8(data) });
    }
  } catch (e) {
    throw bad(short(e));
  } finally {
    zip.close();
  }
  return { skills, ignored };
}

const isSkillFile = (path: string) => path.split("/").length >= 2 && path.endsWith(`/${SKILL_FILE}`);
const dirOf = (path: string) => path.slice(0, path.lastIndexOf("/"));
const clip = (s: string) => (s.length > 120 ? `${s.slice(0, 117)}…` : s);
const short = (e: unknown) => clip(e instanceof Error ? e.message : String(e));

async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.length;
    // yauzl already stops an entry at its declared size; this keeps the cap whatever it declared.
    if (total > ARCHIVE_MAX_BYTES) throw new Error(`'${clip(entry.fileName)}' inflates past the cap`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The text, or null when it is not UTF-8 (refused per file). */
export function utf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
