// The seed's three assertions, from the context facts Proctor recorded when it served each
// arm: both skill arms retrieved zero raw workflows; only the developer arm carried a
// developer message (after the provider mapping); the skill body was byte-identical across the
// skill arms (sha256 per served context). Pure.
import type { Arm } from "./scoring";
import { pluralise } from "../text/format";

export type ServedContext = { arm: string; rawWorkflowCount: number; developerMessage: boolean; skillSha256: string | null };

export type CheckStatus = "pass" | "fail" | "pending";
export type SeedCheck = {
  key: "skill_arms_no_raw_workflows" | "developer_message_only_in_developer_arm" | "skill_body_identical";
  label: string;
  /** pending: no context of the arms it is about has been served yet. */
  status: CheckStatus;
  evidence: string;
};

const isSkillArm = (a: Arm) => a.mode === "skill_user" || a.mode === "skill_developer";

export function seedChecks(arms: Arm[], served: ServedContext[]): SeedCheck[] {
  const modeOf = new Map(arms.map((a) => [a.name, a.mode]));
  const skillNames = new Set(arms.filter(isSkillArm).map((a) => a.name));
  const skillServed = served.filter((s) => skillNames.has(s.arm));

  const withRaw = skillServed.filter((s) => s.rawWorkflowCount > 0);
  const noRaw: SeedCheck = {
    key: "skill_arms_no_raw_workflows",
    label: "Skill arms retrieved zero raw workflows",
    status: withRaw.length ? "fail" : skillServed.length ? "pass" : "pending",
    evidence: withRaw.length
      ? `${pluralise(withRaw.length, "skill-arm context")} carried raw workflows (arms ${[...new Set(withRaw.map((s) => s.arm))].join(", ")})`
      : `${pluralise(skillServed.length, "skill-arm context")} served, each with 0 raw workflows`,
  };

  const devServed = served.filter((s) => modeOf.get(s.arm) === "skill_developer");
  const devMissing = devServed.filter((s) => !s.developerMessage);
  const devElsewhere = served.filter((s) => modeOf.get(s.arm) !== "skill_developer" && s.developerMessage);
  const devOk = devMissing.length === 0 && devElsewhere.length === 0;
  const developer: SeedCheck = {
    key: "developer_message_only_in_developer_arm",
    label: "Only the developer arm carried a developer message",
    status: !devOk ? "fail" : devServed.length ? "pass" : "pending",
    evidence: !devOk
      ? [
          devMissing.length ? `${pluralise(devMissing.length, "developer-arm context")} without a developer message` : "",
          devElsewhere.length ? `${pluralise(devElsewhere.length, "other-arm context")} with one (arms ${[...new Set(devElsewhere.map((s) => s.arm))].join(", ")})` : "",
        ].filter(Boolean).join("; ")
      : `${devServed.length}/${devServed.length} developer-arm contexts with a developer message, ${served.length - devServed.length} other contexts without`,
  };

  const hashes = [...new Set(skillServed.map((s) => s.skillSha256))];
  const identical = hashes.length === 1 && hashes[0] !== null;
  const body: SeedCheck = {
    key: "skill_body_identical",
    label: "The skill body was byte-identical across skill arms",
    status: skillServed.length === 0 ? "pending" : identical ? "pass" : "fail",
    evidence:
      skillServed.length === 0
        ? "no skill-arm context served yet"
        : identical
          ? `one body sha256 over ${pluralise(skillServed.length, "skill-arm context")}: ${hashes[0]}`
          : `${pluralise(hashes.length, "distinct body hash", "distinct body hashes")} over the skill-arm contexts`,
  };
  return [noRaw, developer, body];
}
