// Skill archives: a zip of `<skill-name>/SKILL.md` folders with every file they bundle. Written
// with fflate (small, in memory), with each file's executable bit; read with yauzl, which exposes
// each entry's external attributes (symlinks, the executable bit), refuses absolute and `..` paths
// itself and stops an entry that inflates past its declared size, so a zip bomb costs at most the
// declared total, which is checked before anything is inflated.
import { zipSync } from "fflate";
import yauzl from "yauzl";
import { Validation } from "../../errors";

/** The cap on an archive: its own size and its total uncompressed size. */
export const ARCHIVE_MAX_BYTES = 10 * 1024 * 1024;
const MAX_ENTRIES = 2000;
const SKILL_FILE = "SKILL.md";
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFREG = 0o100000;
/** The "version made by" host of a zip written on Unix, whose external attributes carry a mode. */
const UNIX_HOST = 3;

/** One file of a skill folder: its path inside the folder, its bytes, its executable bit. */
export type ArchiveEntry = { path: string; bytes: Uint8Array; executable: boolean };
/** A skill folder of an archive: where it is (`root`), its name (the last segment) and its files, SKILL.md included. */
export type ArchiveFolder = { root: string; folder: string; files: ArchiveEntry[] };

/**
 * The zip of `files` (path → bytes or text), in the order given, with a fixed timestamp so equal
 * skills give equal bytes; an executable file keeps its mode (0755, others 0644).
 */
export function writeArchive(files: { path: string; bytes: Uint8Array | string; executable?: boolean }[]): Uint8Array {
  const mtime = new Date("2000-01-01T00:00:00Z");
  const mode = (x: boolean | undefined) => ((S_IFREG | (x ? 0o755 : 0o644)) << 16) >>> 0;
  return zipSync(
    Object.fromEntries(
      files.map((f) => [f.path, [typeof f.bytes === "string" ? new TextEncoder().encode(f.bytes) : f.bytes, { mtime, os: UNIX_HOST, attrs: mode(f.executable) }]]),
    ),
    { level: 6 },
  );
}

const bad = (message: string) => new Validation(`The archive was refused: ${message}. Nothing was imported.`);

/**
 * The skill folders of an archive (each folder holding a SKILL.md), each with every file under it. Throws Validation, before anything
 * is written, for anything that could place a file outside its folder or exhaust memory.
 */
export async function readArchive(bytes: Uint8Array): Promise<ArchiveFolder[]> {
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
  const seen = new Set<string>();
  for (const e of files) {
    if (seen.has(e.fileName)) throw bad(`'${clip(e.fileName)}' is in it twice`);
    seen.add(e.fileName);
  }
  // A SKILL.md inside another skill's folder is one of that skill's files (a template it bundles).
  const dirs = [...new Set(files.filter((e) => isSkillFile(e.fileName)).map((e) => dirOf(e.fileName)))];
  const roots = dirs.filter((d) => !dirs.some((outer) => d.startsWith(`${outer}/`)));
  const rootOf = (path: string) => roots.find((dir) => path.startsWith(`${dir}/`));
  const outside = files.find((e) => rootOf(e.fileName) === undefined);
  if (outside) throw bad(`'${clip(outside.fileName)}' is outside a skill folder (<skill-name>/${SKILL_FILE})`);

  const folders = new Map(roots.map((root) => [root, { root, folder: root.split("/").pop()!, files: [] as ArchiveEntry[] }]));
  try {
    for (const e of files) {
      const root = rootOf(e.fileName)!;
      const data = await readEntry(zip, e);
      folders.get(root)!.files.push({ path: e.fileName.slice(root.length + 1), bytes: new Uint8Array(data), executable: isExecutable(e) });
    }
  } catch (e) {
    throw bad(short(e));
  } finally {
    zip.close();
  }
  // Archive order: the folder whose SKILL.md comes first, first.
  return files.filter((e) => isSkillFile(e.fileName) && folders.has(dirOf(e.fileName))).map((e) => folders.get(dirOf(e.fileName))!);
}

/** The owner's, group's or others' executable bit of a zip written on Unix (other hosts carry no mode). */
const isExecutable = (e: yauzl.Entry) => e.versionMadeBy >> 8 === UNIX_HOST && ((e.externalFileAttributes >>> 16) & 0o111) !== 0;

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
