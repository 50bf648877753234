// One audit event as a sentence with links to what it is about (skill, class, report,
// procedure, agent, user, API key). The actor and time are columns of their own.
import Link from "next/link";
import type { AuditEvent } from "@/lib/audit/events";
import { procedureHref } from "../ledger/links";
import { classHref, skillHref } from "../review/report-card";
import { linkClass, shortHash } from "../review/styles";

const USERS = "/settings/users";
const API_KEYS = "/settings/api-keys";
const agentHref = (id: string) => `/agents/${encodeURIComponent(id)}`;
const reportsHref = (agentId: string) => `/workflows?${new URLSearchParams({ agent: agentId })}`;

function A({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <Link href={href} className={linkClass}>
      {children}
    </Link>
  );
}

const Reason = ({ text }: { text: string | null }) => (text ? <span className="text-slate-600 dark:text-slate-400"> — “{text}”</span> : null);
const Agent = ({ id }: { id: string }) => <A href={agentHref(id)}>{id}</A>;
const json = (v: unknown) => JSON.stringify(v);

/** Where an event's target lives in the console; null for persona accounts (a pseudonym only). */
export function targetHref(e: AuditEvent): string | null {
  switch (e.target.type) {
    case "user":
      return USERS;
    case "api_key":
      return API_KEYS;
    case "agent":
      return agentHref(e.target.id);
    case "skill":
      return "agent_id" in e.data ? skillHref(e.data.agent_id, e.target.id) : null;
    case "job":
      return "agent_id" in e.data ? agentHref(e.data.agent_id) : null;
    case "account":
      return null;
  }
}

function CycleOutcome({ e }: { e: AuditEvent & { type: "promotion_cycle.ran" | "class.distilled" } }) {
  const agentId = e.target.id;
  return (
    <>
      {": "}
      {e.data.promoted.length} promoted
      {e.data.promoted.map((id, i) => (
        <span key={id}>
          {i === 0 ? " (" : ", "}
          <A href={skillHref(agentId, id)}>{id}</A>
          {i === e.data.promoted.length - 1 ? ")" : ""}
        </span>
      ))}
      , {e.data.deprecated.length} deprecated, {e.data.rejected.length} rejected
      {e.data.insufficient?.length ? ` (${e.data.insufficient.map((x) => `${shortHash(x.canonical_hash)} INSUFFICIENT: ${x.reason}`).join("; ")})` : ""}, {e.data.skipped} skipped, {e.data.deferred} deferred.{" "}
      <A href={reportsHref(agentId)}>Reports</A>
    </>
  );
}

export function AuditEventSummary({ event: e }: { event: AuditEvent }) {
  switch (e.type) {
    case "user.bootstrapped":
      return <>Created the first admin <A href={USERS}>user</A> at first start.</>;
    case "user.created":
      return (
        <>
          Created <A href={USERS}>user {e.data.email}</A> as {e.data.role.toLowerCase()}
          {e.data.password_generated ? ", with a generated password" : ""}.
        </>
      );
    case "user.updated": {
      const d = e.data;
      const changes = [
        d.active_before !== d.active_after ? (d.active_after ? "reactivated" : "deactivated") : null,
        d.role_before !== d.role_after ? `role ${d.role_before.toLowerCase()} → ${d.role_after.toLowerCase()}` : null,
      ].filter(Boolean);
      return <>Changed <A href={USERS}>user</A>: {changes.join(", ") || "no change"}<Reason text={d.reason} /></>;
    }
    case "api_key.bootstrapped":
      return <>Registered the <A href={API_KEYS}>API key</A> from PROCTOR_API_KEY at start.</>;
    case "api_key.created": {
      const d = e.data;
      const bound = [d.tenant ? `tenant ${d.tenant}` : null, d.agents?.length ? `agents ${d.agents.join(", ")}` : null, d.evaluator_id ? `evaluator ${d.evaluator_id}` : null].filter(Boolean);
      return (
        <>
          Created <A href={API_KEYS}>API key “{d.name}”</A> ({d.prefix}…) with scopes {d.scopes.join(", ")}
          {bound.length ? `, bound to ${bound.join("; ")}` : ""}
          {d.expires_at ? `, expiring ${d.expires_at}` : ""}.
        </>
      );
    }
    case "api_key.rotated":
      return <>Rotated the secret of <A href={API_KEYS}>API key</A> {e.data.prefix}… (the old secret works until {e.data.previous_valid_until})<Reason text={e.data.reason} /></>;
    case "api_key.revoked":
      return <>Revoked an <A href={API_KEYS}>API key</A><Reason text={e.data.reason} /></>;
    case "agent.created":
    case "agent.replaced":
      return (
        <>
          {e.type === "agent.created" ? "Declared" : "Replaced"} agent <Agent id={e.target.id} /> (“{e.data.name}”) with {e.data.tools.length} tools
          {e.data.outcome_rule === null ? "" : " and an outcome rule"}.
        </>
      );
    case "agent.tools_observed":
      return <>Added {e.data.tools.length} tool{e.data.tools.length === 1 ? "" : "s"} seen in OpenTelemetry runs ({e.data.tools.join(", ")}) to agent <Agent id={e.target.id} />&apos;s toolbox.</>;
    case "learning_config.updated":
      return (
        <>
          Changed the learning configuration of <Agent id={e.target.id} />:{" "}
          {Object.entries(e.data.changed).map(([k, c]) => `${k} ${json(c.from)} → ${json(c.to)}`).join(", ") || "nothing"}.
        </>
      );
    case "promotion_cycle.ran":
      return <>Ran a {e.data.trigger} promotion cycle on <Agent id={e.target.id} /><CycleOutcome e={e} /></>;
    case "class.distilled":
      return (
        <>
          Distilled class <A href={classHref(e.target.id, e.data.canonical_hash, null)}>{shortHash(e.data.canonical_hash)}</A> of <Agent id={e.target.id} />
          <CycleOutcome e={e} />
        </>
      );
    case "skill.activated":
      return <>Activated <A href={skillHref(e.data.agent_id, e.target.id)}>skill v{e.data.version}</A> of <Agent id={e.data.agent_id} /> with {e.data.injection_role} authority<Reason text={e.data.reason} /></>;
    case "skill.demoted":
      return <>Demoted <A href={skillHref(e.data.agent_id, e.target.id)}>skill v{e.data.version}</A> of <Agent id={e.data.agent_id} /><Reason text={e.data.reason} /></>;
    case "skill.deprecated":
      return <>Deprecated <A href={skillHref(e.data.agent_id, e.target.id)}>a skill</A> of <Agent id={e.data.agent_id} /> {e.data.trigger === "agent_update" ? "when the agent's toolbox changed" : `in a ${e.data.trigger} cycle`}<Reason text={e.data.reason} /></>;
    case "skill.deviation_flagged":
      return (
        <>
          Flagged <A href={skillHref(e.data.agent_id, e.target.id)}>a skill</A> of <Agent id={e.data.agent_id} /> for review: {e.data.deviations} of {e.data.activations} activations took another path<Reason text={e.data.reason} />
        </>
      );
    case "skill_qualification.started":
      return (
        <>
          Started paired-evaluation qualification of <A href={skillHref(e.data.agent_id, e.target.id)}>a skill</A> of <Agent id={e.data.agent_id} /> as procedure{" "}
          <A href={procedureHref(e.data.scope, e.data.procedure_id)}>{e.data.procedure_id}</A> (model {e.data.model})<Reason text={e.data.reason} />
        </>
      );
    case "shadow_job.retried":
      return <>Retried dead shadow evaluation job {e.target.id} of <Agent id={e.data.agent_id} />.</>;
    case "persona_profile.viewed":
      return <>Viewed a persona profile.</>;
    case "persona_reflection.requested":
      return <>{e.data.trigger === "daily" ? "The daily review started a persona reflection." : "Requested a persona reflection."}</>;
    case "persona_proposal.approved":
    case "persona_proposal.dismissed":
      return <>{e.type === "persona_proposal.approved" ? "Approved" : "Dismissed"} persona suggestion {e.data.proposal_id} (revision {e.data.revision}).</>;
    case "persona_profile.paused":
    case "persona_profile.resumed":
      return <>{e.type === "persona_profile.paused" ? "Paused" : "Resumed"} persona reflection (revision {e.data.revision}).</>;
    case "persona_daily_review.enabled":
    case "persona_daily_review.disabled":
      return <>Turned daily persona review {e.type === "persona_daily_review.enabled" ? "on" : "off"} (revision {e.data.revision}).</>;
    case "persona_change.undone":
      return <>Undid the last persona change (revision {e.data.revision}).</>;
    case "user.signed_out_everywhere":
      return <>Signed <A href={USERS}>user</A> out everywhere<Reason text={e.data.reason} /></>;
    case "user.password_reset":
      return <>Reset the password of <A href={USERS}>user</A> (signed out everywhere)<Reason text={e.data.reason} /></>;
  }
}
