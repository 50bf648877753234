// A settings field's validation failure in words a reviewer can act on ("Enter a whole number
// of at least 1"), not the schema's ("expected int, received number"). Browser-safe: the form
// words its own check and the server's refusal the same way.
import { CONFIG_FIELDS, type FieldKind } from "./config-fields";

export type ConfigIssue = {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  expected?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
};

const NOUN: Record<FieldKind, string> = {
  int: "a whole number",
  number: "a number",
  rate: "a number from 0 to 1",
  "nullable-rate": "a number from 0 to 1, or leave it empty",
  "nullable-int": "a whole number, or leave it empty",
  boolean: "yes or no",
  text: "a value",
  choice: "one of the choices",
};

function bound(issue: ConfigIssue, side: "minimum" | "maximum"): string {
  const value = Number(issue[side]);
  if (side === "minimum") return issue.inclusive === false ? `greater than ${value}` : `of at least ${value}`;
  return issue.inclusive === false ? `less than ${value}` : `of at most ${value}`;
}

/** The noun a bound is said of: "a number of at most 1", "a whole number of at least 1". */
const BOUNDED: Record<FieldKind, FieldKind> = { int: "int", number: "number", rate: "number", "nullable-rate": "number", "nullable-int": "int", boolean: "boolean", text: "text", choice: "choice" };

/** The message shown next to the field the issue names. */
export function configIssueMessage(issue: ConfigIssue): string {
  const kind = CONFIG_FIELDS.get(String(issue.path[0]))?.kind ?? "number";
  switch (issue.code) {
    case "invalid_type":
      return `Enter ${issue.expected === "int" ? NOUN.int : NOUN[kind]}.`;
    case "too_small":
      return `Enter ${NOUN[BOUNDED[kind]]} ${bound(issue, "minimum")}.`;
    case "too_big":
      return `Enter ${NOUN[BOUNDED[kind]]} ${bound(issue, "maximum")}.`;
    default:
      // Custom rules already speak in words ("must be in (0, 0.5)"); say them as a sentence.
      return issue.message.charAt(0).toUpperCase() + issue.message.slice(1).replace(/\.?$/, ".");
  }
}
