// Text that made a backtracking regular expression or a YAML reader work for seconds, or that an
// export or the database would mishandle: one place for the unit tests that assert results on
// them, the fuzzer's corpus (./fuzz-inputs.ts) and benchmarks that measure a running server.

/** A SKILL.md frontmatter whose aliases expand to 9^9 strings (billion laughs). */
function billionLaughs(): string {
  const lines = ['l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i <= 8; i++) lines.push(`l${i}: &l${i} [${Array(9).fill(`*l${i - 1}`).join(",")}]`);
  return `---\nname: laughs\ndescription: Expands to a billion strings.\n${lines.join("\n")}\n---\n# Laughs\n`;
}

export const HOSTILE_TEXT = {
  /** A run query: edge punctuation stripped by `/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/` took 4.2 s. */
  edgePunctuation: "a" + "!".repeat(65_000) + "a",
  /** A run query: the leak check's e-mail pattern rescanned a long run of address characters with no @ from each of them. */
  emailLocalRun: "a".repeat(60_000) + "!",
  /** A run query: an @ followed by a long dotless domain. */
  emailDomainRun: "x@" + "a".repeat(60_000) + "!",
  /** A SKILL.md line: the section-heading pattern was cubic (8.9 s). */
  sectionHeading: "# a" + " ".repeat(2_000) + "#x",
  /** An experiment case's answer pattern and the agent's answer: 3.4 s in JavaScript's engine. */
  answerPattern: { pattern: String.raw`^(\w+\s?)+$`, answer: "a".repeat(26) + "!" },
  /** A SKILL.md whose frontmatter is a YAML alias bomb. */
  billionLaughs: billionLaughs(),
  /** A case id a spreadsheet runs as a formula unless the CSV escapes it. */
  csvFormula: "-A1-A2",
  /** A lone UTF-16 surrogate: PostgreSQL's driver would write it as U+FFFD. */
  loneSurrogate: "lone \ud800 surrogate",
} as const;

/** The strings above, for a corpus. */
export const HOSTILE_STRINGS: readonly string[] = [
  HOSTILE_TEXT.edgePunctuation,
  HOSTILE_TEXT.emailLocalRun,
  HOSTILE_TEXT.emailDomainRun,
  HOSTILE_TEXT.sectionHeading,
  HOSTILE_TEXT.answerPattern.pattern,
  HOSTILE_TEXT.answerPattern.answer,
  HOSTILE_TEXT.billionLaughs,
  HOSTILE_TEXT.csvFormula,
  HOSTILE_TEXT.loneSurrogate,
];
