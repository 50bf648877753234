// One audit event as a sentence, by type, naming what it is about (skill, class, report,
// procedure, agent, user, API key, account) with a link to it. Names come from the page's
// batch lookup (lib/audit/names.ts); a record since deleted shows its id. The actor and time
// are columns of their own.
import type { AuditEvent } from "@/lib/audit/events";
import { NO_NAMES, type AuditNames } from "@/lib/audit/names";
import { accountAuditHref, agentHref, apiKeyHref, classHref, experimentHref, personaHref, skillHref, userHref, webhooksHref, workflowsHref } from "@/lib/console/links";
import { RecordLink as A } from "../links/record-link";
import { procedureHref } from "../ledger/links";
import { shortHash } from "../review/styles";
import { pluralise } from "@/lib/text/format";

const Reason = ({ text }: { text: string | null }) => (text ? <span className="text-slate-600 dark:text-slate-400"> — “{text}”</span> : null);
const json = (v: unknown) => JSON.stringify(v);

/** The target of an event as a name and, where the console shows it, a link. */
export function targetOf(e: AuditEvent, names: AuditNames = NO_NAMES): { label: string; href: string | null } {
  const id = e.target.id;
  switch (e.target.type) {
    case "user":
      return { label: `user ${names.user[id] ?? ("email" in e.data ? e.data.email : id)}`, href: userHref(id) };
    case "api_key":
      return { label: `API key ${names.api_key[id] ? `“${names.api_key[id]}”` : "name" in e.data ? `“${e.data.name}”` : id}`, href: apiKeyHref(id) };
    case "agent":
      return { label: `agent ${names.agent[id] ?? id}`, href: agentHref(id) };
    case "skill": {
      const s = names.skill[id];
      const agentId = s?.agentId ?? ("agent_id" in e.data ? e.data.agent_id : null);
      return { label: `skill ${s ? `${s.name} v${s.version}` : id}`, href: agentId ? skillHref(agentId, id) : null };
    }
    case "job":
      return { label: `job ${id}`, href: "agent_id" in e.data && e.data.agent_id ? agentHref(e.data.agent_id) : null };
    case "account": {
      // Named when the page resolved its pseudonym (an account with a persona, for a reader of
      // personas); otherwise the row holds only the pseudonym.
      const plain = names.account[id];
      return plain ? { label: `account ${plain}`, href: personaHref(plain) } : { label: "an account (pseudonymous: forgotten, or without a persona)", href: null };
    }
    case "webhook":
      return { label: "a webhook endpoint", href: webhooksHref() };
    case "experiment":
      return { label: `experiment ${id}`, href: experimentHref(id) };
  }
}

export function AuditEventSummary({ event: e, names = NO_NAMES }: { event: AuditEvent; names?: AuditNames }) {
  // Render helpers, not components: a component declared in here would be a new type on every
  // render, and React would remount its subtree each time.
  const agent = (id: string) => <A href={agentHref(id)}>{names.agent[id] ?? id}</A>;
  const skill = (agentId: string, id: string, version?: number) => {
    const s = names.skill[id];
    return <A href={skillHref(agentId, id)}>{s ? `${s.name} v${s.version}` : `skill ${id}${version !== undefined ? ` v${version}` : ""}`}</A>;
  };
  const t = targetOf(e, names);
  const target = t.href ? <A href={t.href}>{t.label}</A> : <>{t.label}</>;
  const plain = names.account[e.target.id];
  const account = plain ? (
    <>
      {" "}of <A href={personaHref(plain)}>account {plain}</A> (<A href={accountAuditHref(plain)}>its events</A>)
    </>
  ) : null;
  const cycle = (agentId: string, d: Omit<Extract<AuditEvent, { type: "promotion_cycle.ran" }>["data"], "trigger">) => (
    <>
      {": "}
      {d.promoted.length} promoted
      {d.promoted.map((id, i) => (
        <span key={id}>
          {i === 0 ? " (" : ", "}
          {skill(agentId, id)}
          {i === d.promoted.length - 1 ? ")" : ""}
        </span>
      ))}
      , {d.deprecated.length} deprecated
      {d.deprecated.map((id, i) => (
        <span key={id}>
          {i === 0 ? " (" : ", "}
          {skill(agentId, id)}
          {i === d.deprecated.length - 1 ? ")" : ""}
        </span>
      ))}
      , {d.rejected.length} rejected
      {d.insufficient?.length ? ` (${d.insufficient.map((x) => `${shortHash(x.canonical_hash)} INSUFFICIENT: ${x.reason}`).join("; ")})` : ""}, {d.skipped} skipped, {d.deferred}{" "}
      deferred. <A href={workflowsHref(agentId)}>Reports</A>
    </>
  );

  switch (e.type) {
    case "user.bootstrapped":
      return <>Created the first admin, {target}, at first start.</>;
    case "user.created":
      return (
        <>
          Created {target} as {e.data.role.toLowerCase()}
          {e.data.password_generated ? ", with a generated password" : ""}.
        </>
      );
    case "user.updated": {
      const d = e.data;
      const changes = [
        d.active_before !== d.active_after ? (d.active_after ? "reactivated" : "deactivated") : null,
        d.role_before !== d.role_after ? `role ${d.role_before.toLowerCase()} → ${d.role_after.toLowerCase()}` : null,
      ].filter(Boolean);
      return <>Changed {target}: {changes.join(", ") || "no change"}<Reason text={d.reason} /></>;
    }
    case "api_key.bootstrapped":
      return <>Registered {target} from PROCTOR_API_KEY at start.</>;
    case "api_key.created": {
      const d = e.data;
      const bound = [d.tenant ? `tenant ${d.tenant}` : null, d.agents?.length ? `agents ${d.agents.join(", ")}` : null, d.evaluator_id ? `evaluator ${d.evaluator_id}` : null].filter(Boolean);
      return (
        <>
          Created {target} ({d.prefix}…) with scopes {d.scopes.join(", ")}
          {bound.length ? `, bound to ${bound.join("; ")}` : ""}
          {d.expires_at ? `, expiring ${d.expires_at}` : ""}.
        </>
      );
    }
    case "api_key.rotated":
      return <>Rotated the secret of {target} ({e.data.prefix}…; the old secret works until {e.data.previous_valid_until})<Reason text={e.data.reason} /></>;
    case "api_key.revoked":
      return <>Revoked {target}<Reason text={e.data.reason} /></>;
    case "agent.created":
    case "agent.replaced":
      return (
        <>
          {e.type === "agent.created" ? "Declared" : "Replaced"} agent {agent(e.target.id)} (“{e.data.name}”) with {e.data.tools.length} tools
          {e.data.outcome_rule === null ? "" : " and an outcome rule"}.
        </>
      );
    case "agent.deletion_started":
      return (
        <>
          Started deleting agent {e.target.id}
          {e.data.include_ledger ? ", its ledger procedures included" : ""}
          <Reason text={e.data.reason} />
        </>
      );
    case "agent.deleted": {
      const total = Object.values(e.data.rows).reduce((a, b) => a + b, 0);
      return (
        <>
          Deleted agent {e.target.id}: {total} rows in {e.data.batches} batches (longest {e.data.longest_batch_ms} ms)
          {e.data.include_ledger ? ", ledger procedures included" : ""}.
        </>
      );
    }
    case "agent.tools_observed":
      return <>Added {e.data.tools.length} tool{e.data.tools.length === 1 ? "" : "s"} seen in OpenTelemetry runs ({e.data.tools.join(", ")}) to agent {agent(e.target.id)}&apos;s toolbox.</>;
    case "learning_config.updated":
      return (
        <>
          Changed the learning configuration of {agent(e.target.id)}:{" "}
          {Object.entries(e.data.changed).map(([k, c]) => `${k} ${json(c.from)} → ${json(c.to)}`).join(", ") || "nothing"}.
        </>
      );
    case "learning_scope.changed":
      return (
        <>
          Changed the learning scope of {agent(e.target.id)} from {e.data.from} to {e.data.to}
          {e.data.trigger === "memorizz_import" ? " for a MemoRizz import" : ""}: {e.data.runs_rescoped} run{e.data.runs_rescoped === 1 ? "" : "s"} regrouped,{" "}
          {e.data.classes_rebuilt} class{e.data.classes_rebuilt === 1 ? "" : "es"} rebuilt.
        </>
      );
    case "promotion_cycle.ran":
      return <>Ran a {e.data.trigger} promotion cycle on {agent(e.target.id)}{cycle(e.target.id, e.data)}</>;
    case "class.distilled":
      return (
        <>
          Distilled class <A href={classHref(e.target.id, e.data.canonical_hash, null)}>{shortHash(e.data.canonical_hash)}</A> of {agent(e.target.id)}
          {cycle(e.target.id, e.data)}
        </>
      );
    case "skill.activated":
      return (
        <>
          Activated {skill(e.data.agent_id, e.target.id, e.data.version)} of {agent(e.data.agent_id)} with {e.data.injection_role} authority
          {e.data.confirmed_scripts?.length ? `, confirming its scripts ${e.data.confirmed_scripts.join(", ")}` : ""}
          <Reason text={e.data.reason} />
        </>
      );
    case "skill.demoted":
      return <>Demoted {skill(e.data.agent_id, e.target.id, e.data.version)} of {agent(e.data.agent_id)}<Reason text={e.data.reason} /></>;
    case "skill.rejected":
      return <>Rejected {skill(e.data.agent_id, e.target.id, e.data.version)} of {agent(e.data.agent_id)}<Reason text={e.data.reason} /></>;
    case "skill.deprecated":
      return <>Deprecated {skill(e.data.agent_id, e.target.id)} of {agent(e.data.agent_id)} {e.data.trigger === "agent_update" ? "when the agent's toolbox changed" : `in a ${e.data.trigger} cycle`}<Reason text={e.data.reason} /></>;
    case "skill.deviation_flagged":
      return (
        <>
          Flagged {skill(e.data.agent_id, e.target.id)} of {agent(e.data.agent_id)} for review: {e.data.deviations} of {e.data.activations} activations took another path<Reason text={e.data.reason} />
        </>
      );
    case "skill_qualification.started":
      return (
        <>
          Started paired-evaluation qualification of {skill(e.data.agent_id, e.target.id)} of {agent(e.data.agent_id)} as procedure{" "}
          <A href={procedureHref(e.data.scope, e.data.procedure_id)}>{e.data.procedure_id}</A> (model {e.data.model})<Reason text={e.data.reason} />
        </>
      );
    case "skills.imported":
      return (
        <>
          Imported {e.data.created.length} skill{e.data.created.length === 1 ? "" : "s"} into {agent(e.target.id)} as shadow from {e.data.format === "zip" ? "a zip" : "one SKILL.md"}:{" "}
          {e.data.duplicates.length} already present, {e.data.refused} refused{e.data.ignored ? `, ${e.data.ignored} other files ignored` : ""}
          {e.data.files ? `; ${e.data.files} files kept, ${e.data.scripts ?? 0} of them scripts` : ""}.
        </>
      );
    case "memorizz.imported":
      return (
        <>
          Imported MemoRizz documents into {agent(e.target.id)}: {e.data.workflows} runs, {e.data.skills.length} skills ({e.data.already_imported} already imported).
        </>
      );
    case "job.retried":
    case "job.dismissed":
      return (
        <>
          {e.type === "job.retried" ? "Retried" : "Dismissed"} dead {e.data.kind.replace(/[_.]/g, " ")} job {e.target.id}
          {e.data.agent_id ? <> of {agent(e.data.agent_id)}</> : null}
          {e.data.attempts === null ? "" : ` after ${pluralise(e.data.attempts, "attempt")}`}
          {e.data.error_class ? ` (last error ${e.data.error_class})` : ""}
          <Reason text={e.data.reason ?? null} />
        </>
      );
    case "persona_profile.viewed":
      return <>Viewed the persona profile{account}.</>;
    case "persona_reflection.requested":
      return <>{e.data.trigger === "daily" ? "The daily review started a persona reflection" : "Requested a persona reflection"}{account}.</>;
    case "persona_proposal.approved":
    case "persona_proposal.dismissed":
      return <>{e.type === "persona_proposal.approved" ? "Approved" : "Dismissed"} persona suggestion {e.data.proposal_id}{account} (revision {e.data.revision}).</>;
    case "persona_profile.paused":
    case "persona_profile.resumed":
      return <>{e.type === "persona_profile.paused" ? "Paused" : "Resumed"} persona reflection{account} (revision {e.data.revision}).</>;
    case "persona_daily_review.enabled":
    case "persona_daily_review.disabled":
      return <>Turned daily persona review {e.type === "persona_daily_review.enabled" ? "on" : "off"}{account} (revision {e.data.revision}).</>;
    case "persona_change.undone":
      return <>Undid the last persona change{account} (revision {e.data.revision}).</>;
    case "user.signed_out_everywhere":
      return <>Signed {target} out everywhere<Reason text={e.data.reason} /></>;
    case "user.password_reset":
      return <>Reset the password of {target} (signed out everywhere)<Reason text={e.data.reason} /></>;
    case "user.password_changed":
      return <>Changed the own password of {target}{e.data.other_sessions_ended > 0 ? ` (${e.data.other_sessions_ended} other ${e.data.other_sessions_ended === 1 ? "session" : "sessions"} ended)` : ""}.</>;
    case "webhook_endpoint.created":
    case "webhook_endpoint.updated":
      return (
        <>
          {e.type === "webhook_endpoint.created" ? "Added" : "Changed"} <A href={webhooksHref()}>webhook endpoint</A> {e.data.url} ({e.data.enabled ? "enabled" : "disabled"}) for{" "}
          {e.data.events.join(", ")}.
        </>
      );
    case "webhook_endpoint.deleted":
      return <>Deleted <A href={webhooksHref()}>webhook endpoint</A> {e.data.url}.</>;
    case "webhook_endpoint.test_sent":
      return <>Sent a test event (message {e.data.delivery_id}) to a <A href={webhooksHref()}>webhook endpoint</A>.</>;
    case "webhook_endpoint.secret_rotated":
      return <>Rotated the signing secret of a <A href={webhooksHref()}>webhook endpoint</A>.</>;
    case "webhook_delivery.redelivered":
      return <>Redelivered {e.data.event} message {e.data.delivery_id} of a <A href={webhooksHref()}>webhook endpoint</A>.</>;
    case "account.forgotten": {
      const d = e.data;
      return (
        <>
          Forgot {target}: {d.runs_forgotten} runs stripped of their private fields, {d.messages_deleted} messages,{" "}
          {d.persona_versions_deleted} persona versions, {d.proposals_deleted} proposals and {d.reviews_deleted} reflections deleted,{" "}
          {d.skills_cleared} skills kept without their sample queries<Reason text={d.reason} />
        </>
      );
    }
    case "experiment.created": {
      const d = e.data;
      return (
        <>
          Created {target} “{d.name}” on {skill(d.agent_id, d.skill_id, d.skill_version)} of {agent(d.agent_id)}: {d.cases} cases ×{" "}
          {d.arms.map((a) => a.name).join(", ")} × {d.repetitions} repetitions, baseline {d.baseline_arm}, model {d.model}, bootstrap seed {d.bootstrap_seed}.
        </>
      );
    }
    case "experiment.completed": {
      const d = e.data;
      const checks = Object.entries(d.checks).map(([k, v]) => `${k} ${v}`).join(", ");
      const ledger = d.ledger.procedure_id ? `${d.ledger.recorded} paired evaluations recorded to ${d.ledger.procedure_id}` : `nothing recorded to the ledger (${d.ledger.skipped})`;
      return (
        <>
          Completed {target} of {skill(d.agent_id, d.skill_id)} with {d.runs} runs; checks: {checks}; {ledger}<Reason text={d.reason} />
        </>
      );
    }
    case "experiment.cancelled":
      return (
        <>
          Cancelled {target} of {skill(e.data.agent_id, e.data.skill_id)} after {e.data.reported} reported runs<Reason text={e.data.reason} />
        </>
      );
  }
}
