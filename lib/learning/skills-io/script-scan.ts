// The static scan of an imported skill's text files: known dangerous patterns become review
// warnings with file and line, never refusals (a reviewer reads the file and decides). Rules:
// a download piped into a shell, reading credentials or SSH keys, dumping the environment, sending
// data to a hard-coded host, long encoded blobs. Public skill collections carry these often, most
// in bundled scripts, so the scan reads every text file of the folder, SKILL.md included.
//
// Every check runs in time linear in the text: each regular expression has at most one unbounded
// quantifier and no nested ones, and reads at most WINDOW characters at a time (a longer line is
// read in overlapping windows), so its backtracking is bounded by a constant per character; rules
// that need two things on a line test them with separate expressions. The blob rule is a loop.
// The expressions read the line with each run of whitespace made one space, so they spell
// whitespace as " " or " ?" and most have no unbounded quantifier at all: a ReDoS checker proves
// them safe at once, where `\s*` between words made its automaton proof take minutes.
// What it cannot see: a URL or command assembled from variables, another file or another line
// than the ones a rule reads (fetch's options may follow it by up to FOLLOW lines).
import { formatNumber } from "../../text/format";

export type ScanRule = "download-to-shell" | "credentials" | "environment-dump" | "send-to-host" | "encoded-blob";

export const SCAN_RULE_LABEL: Record<ScanRule, string> = {
  "download-to-shell": "runs a download in a shell",
  credentials: "reads credentials or SSH keys",
  "environment-dump": "dumps the environment",
  "send-to-host": "sends data to a hard-coded host",
  "encoded-blob": "long encoded blob",
};

export type ScanFinding = { file: string; line: number; rule: ScanRule; excerpt: string };

/** Characters a regular expression reads at once; longer lines are read in windows overlapping by OVERLAP. */
export const WINDOW = 2000;
const OVERLAP = 400;
/** An encoded run longer than this is a blob (base64 or hex). */
export const BLOB_MIN_CHARS = 200;
/** Lines after a fetch/urlopen call read for its method or body. */
const FOLLOW = 5;
/** Findings kept per file and rule, and per skill: a minified file would otherwise list thousands. */
const PER_RULE_PER_FILE = 20;
export const MAX_FINDINGS = 200;
const EXCERPT_CHARS = 160;

// ---- download-to-shell
const FETCHER = /\b(?:curl|wget)\b/i;
const PIPE_TO_SHELL = /\| ?(?:sudo )?(?:ba|z|da|k|fi)?sh\b/;
/** A shell, eval or source running what a download prints: `sh -c "$(curl …)"`, `bash <(curl …)`, `eval "$(wget …)"`. */
const SHELL_OF_DOWNLOAD = /\b(?:(?:ba|z|da|k)?sh -c |(?:ba|z|da|k)?sh |eval |source )["']?(?:\$\(|<\(|`) ?(?:curl|wget)\b/i;
const EVAL_OF_DOWNLOAD = /\b(?:exec|eval) ?\( ?(?:requests\.get|urlopen|urllib\.request\.urlopen|httpx\.get|fetch)\b/;
const PS_EVAL = /\b(?:iex|invoke-expression)\b/i;
const PS_DOWNLOAD = /\b(?:downloadstring|invoke-webrequest|iwr|invoke-restmethod|irm)\b/i;

// ---- credentials
const CREDENTIALS =
  /[~/\\]\.ssh\b|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\bauthorized_keys\b|\.aws[/\\]credentials\b|\.netrc\b|\.git-credentials\b|\.docker[/\\]config\.json\b|\.kube[/\\]config\b|\bfind-(?:generic|internet)-password\b|\bkeychain\b|\/etc\/shadow\b|\.gnupg\b/i;

// ---- environment-dump
const ENV_DUMPS = [
  /\bprintenv\b/,
  // `env` run alone (its output is the whole environment), not `env VAR=x cmd`, `f(env)` or Markdown's `env`.
  /(?:^|[;&|]|\$\() ?env ?(?:$|[|>;&)])/,
  // Serialized or printed; `dict(os.environ)` and `os.environ.items()` alone copy it for a subprocess.
  /\b(?:json\.dumps|str|repr|print|pprint|yaml\.dump) ?\( ?os\.environ ?[,)]/,
  /\b(?:json\.dumps|str|repr|print|pprint|yaml\.dump) ?\( ?dict ?\( ?os\.environ ?\)/,
  /\b(?:JSON\.stringify|Object\.(?:entries|keys|values)|console\.(?:log|dir)|util\.inspect) ?\( ?process\.env ?[,)]/,
  /\b(?:Get-ChildItem|gci|dir|ls) env:/i,
  /\bENV\.(?:to_h|to_a|each|inspect)\b/,
  /\bkeys %ENV\b|\bDumper ?\( ?\\?%ENV\b/,
];

// ---- send-to-host
const URL_HOST = /\bhttps?:\/\/\[?([A-Za-z0-9.\-:]+)/gi;
const IPV4 = /\b(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})\b/g;
/** Names that never leave the machine or are reserved for examples (RFC 2606). */
const RESERVED_NAMES = ["localhost", "example", "test", "invalid"];
const LOOPBACK_IP = /^(?:127\.\d{1,3}\.\d{1,3}\.\d{1,3}|0\.0\.0\.0|::1?)$/;
function isLocal(host: string): boolean {
  const h = host.toLowerCase();
  const top = h.slice(h.lastIndexOf(".") + 1);
  return LOOPBACK_IP.test(h) || RESERVED_NAMES.includes(top) || /^example\.(?:com|org|net)$/.test(h) || h.endsWith(".example.com") || h.endsWith(".example.org") || h.endsWith(".example.net");
}
/** Calls that send their data with them. */
const SENDING_CALL = /\.(?:post|put|patch) ?\(|--post-(?:data|file)\b|\/dev\/tcp\/|\b(?:nc|ncat|netcat) /i;
const CURL = /\bcurl\b/i;
const CURL_DATA = /(?:^| )(?:-d|--data(?:-(?:ascii|binary|raw|urlencode))?|-F|--form|-T|--upload-file|-X ?(?:POST|PUT|PATCH))(?: |=|$)/;
/** Calls whose data, if any, is in their options (this line or the next few). */
const OPTION_CALL = /\b(?:fetch|urlopen|Request|request|axios|Invoke-WebRequest|Invoke-RestMethod|XMLHttpRequest|sendBeacon)\b/;
const OPTION_DATA = /\bmethod ?[:=] ?["']?(?:POST|PUT|PATCH)\b|\bbody ?[:=]|\bdata ?=|\bjson ?=|-Body\b|-InFile\b|-Method (?:Post|Put|Patch)\b|\bsendBeacon\b/i;

/** Every regular expression of the scan, for the test that checks their shape (one quantifier level). */
export const SCAN_PATTERNS: readonly RegExp[] = [
  FETCHER, PIPE_TO_SHELL, SHELL_OF_DOWNLOAD, EVAL_OF_DOWNLOAD, PS_EVAL, PS_DOWNLOAD, CREDENTIALS, ...ENV_DUMPS,
  URL_HOST, IPV4, LOOPBACK_IP, SENDING_CALL, CURL, CURL_DATA, OPTION_CALL, OPTION_DATA,
];

/** The scan's findings for one text file (`file`: its path inside the skill folder), line by line. */
export function scanText(file: string, text: string): ScanFinding[] {
  const lines = text.split("\n");
  const out: ScanFinding[] = [];
  const count = new Map<ScanRule, number>();
  const add = (rule: ScanRule, index: number, excerpt: string) => {
    const n = count.get(rule) ?? 0;
    if (n >= PER_RULE_PER_FILE) return;
    if (out.some((f) => f.rule === rule && f.line === index + 1)) return;
    count.set(rule, n + 1);
    out.push({ file, line: index + 1, rule, excerpt: clip(excerpt) });
  };
  lines.forEach((line, i) => {
    for (const raw of windows(line)) {
      const w = oneSpace(raw);
      if (downloadToShell(w)) add("download-to-shell", i, raw);
      if (CREDENTIALS.test(w)) add("credentials", i, raw);
      if (ENV_DUMPS.some((re) => re.test(w))) add("environment-dump", i, raw);
      if (sendsToHost(w, lines, i)) add("send-to-host", i, raw);
    }
    const blob = encodedRun(line);
    if (blob) add("encoded-blob", i, `${blob.kind} run of ${formatNumber(blob.length)} characters: ${line.slice(blob.start, blob.start + 40)}…`);
  });
  return out.sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule));
}

/** The scan of a skill's files (text files only: binary ones are listed with their size and hash), at most MAX_FINDINGS. */
export function scanFiles(files: readonly { path: string; text: string | null }[]): ScanFinding[] {
  return files.flatMap((f) => (f.text === null ? [] : scanText(f.path, f.text))).slice(0, MAX_FINDINGS);
}

const oneSpace = (text: string) => text.replace(/\s+/g, " ");

/** The line, or its overlapping windows when it is longer than WINDOW. */
function windows(line: string): string[] {
  if (line.length <= WINDOW) return [line];
  const out: string[] = [];
  for (let start = 0; start < line.length; start += WINDOW - OVERLAP) {
    out.push(line.slice(start, start + WINDOW));
    if (start + WINDOW >= line.length) break;
  }
  return out;
}

function downloadToShell(w: string): boolean {
  const fetcher = FETCHER.exec(w);
  if (fetcher && PIPE_TO_SHELL.test(w.slice(fetcher.index))) return true;
  if (SHELL_OF_DOWNLOAD.test(w) || EVAL_OF_DOWNLOAD.test(w)) return true;
  return PS_EVAL.test(w) && PS_DOWNLOAD.test(w);
}

/** A literal host that is not loopback or a reserved example name. */
function remoteHost(w: string): boolean {
  for (const m of w.matchAll(URL_HOST)) {
    // host:port, or an IPv6 address (more than one colon) as it is.
    const host = m[1].split(":").length === 2 ? m[1].slice(0, m[1].indexOf(":")) : m[1];
    if (!isLocal(host.replace(/\.$/, ""))) return true;
  }
  for (const m of w.matchAll(IPV4)) if (!isLocal(m[1]) && m[1].split(".").every((p) => Number(p) <= 255)) return true;
  return false;
}

function sendsToHost(w: string, lines: string[], index: number): boolean {
  if (!remoteHost(w)) return false;
  if (SENDING_CALL.test(w)) return true;
  if (CURL.test(w) && CURL_DATA.test(w)) return true;
  if (!OPTION_CALL.test(w)) return false;
  for (let j = index; j < Math.min(lines.length, index + 1 + FOLLOW); j++) {
    const next = j === index ? w : oneSpace(lines[j].slice(0, WINDOW));
    if (OPTION_DATA.test(next)) return true;
  }
  return false;
}

const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
const isBase64 = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 43 || c === 47 || c === 45 || c === 95;

/**
 * The first run of more than BLOB_MIN_CHARS characters of the base64 alphabet (mixing upper case,
 * lower case and digits, as encoded bytes do and words or identifiers do not) or of hex digits
 * (mixing digits and letters), read in one pass; `\xNN` escapes count as hex.
 */
export function encodedRun(line: string): { kind: "base64" | "hex"; start: number; length: number } | null {
  let start = 0;
  let upper = false, lower = false, digit = false, hexOnly = true;
  const flush = (end: number) => {
    const length = end - start;
    if (length <= BLOB_MIN_CHARS) return null;
    if (hexOnly) return digit && (upper || lower) ? { kind: "hex" as const, start, length } : null;
    return upper && lower && digit ? { kind: "base64" as const, start, length } : null;
  };
  for (let i = 0; i <= line.length; i++) {
    const c = i < line.length ? line.charCodeAt(i) : -1;
    // "\x" inside a run of escapes: the backslash and the x belong to the hex run.
    const escape = c === 92 && line.charCodeAt(i + 1) === 120 && isHex(line.charCodeAt(i + 2));
    if (escape) {
      i++;
      continue;
    }
    if (c !== -1 && isBase64(c)) {
      if (c >= 65 && c <= 90) upper = true;
      else if (c >= 97 && c <= 122) lower = true;
      else if (c >= 48 && c <= 57) digit = true;
      if (!isHex(c)) hexOnly = false;
      continue;
    }
    const run = flush(i);
    if (run) return run;
    start = i + 1;
    upper = lower = digit = false;
    hexOnly = true;
  }
  return null;
}

const clip = (s: string) => {
  const t = s.trim();
  return t.length > EXCERPT_CHARS ? `${t.slice(0, EXCERPT_CHARS - 1)}…` : t;
};
