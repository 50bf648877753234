-- Reads that stay bounded as the data grows.
-- 1. Summaries kept at write time, so /traces and /accounts page through one row per thread or
--    account instead of grouping every run and message on every view: thread_summaries (one row
--    per agent, account and thread; account '' for runs without one), account_agent_summaries
--    (per agent and account) and account_summaries (per account, with the agent of its newest
--    activity). Statement-level triggers on workflows and conversation_messages keep them in
--    the writing statement's transaction whatever writes the rows (the agent API, OTLP
--    assembly, imports, retention, forgetting, agent deletion).
-- 2. Indexes: the runs list's order, retention of conversation messages, quote expiry.
-- 3. Similarity search's candidate keys: the coordinates where a run's query vector is largest.

CREATE TABLE "thread_summaries" (
    "agent_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL DEFAULT '',
    "thread_id" TEXT NOT NULL,
    "messages" INTEGER NOT NULL DEFAULT 0,
    "runs" INTEGER NOT NULL DEFAULT 0,
    "last_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "thread_summaries_pkey" PRIMARY KEY ("agent_id", "user_id", "thread_id")
);
CREATE INDEX "thread_summaries_last_at_idx" ON "thread_summaries" ("last_at" DESC, "thread_id" DESC, "agent_id" DESC, "user_id" DESC);
CREATE INDEX "thread_summaries_agent_id_last_at_idx" ON "thread_summaries" ("agent_id", "last_at" DESC, "thread_id" DESC, "user_id" DESC);
CREATE INDEX "thread_summaries_user_id_last_at_idx" ON "thread_summaries" ("user_id", "last_at" DESC, "thread_id" DESC, "agent_id" DESC);

CREATE TABLE "account_agent_summaries" (
    "agent_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "runs" INTEGER NOT NULL DEFAULT 0,
    "threads" INTEGER NOT NULL DEFAULT 0,
    "last_seen" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "account_agent_summaries_pkey" PRIMARY KEY ("agent_id", "user_id")
);
CREATE INDEX "account_agent_summaries_agent_id_last_seen_idx" ON "account_agent_summaries" ("agent_id", "last_seen" DESC, "user_id" DESC);
CREATE INDEX "account_agent_summaries_user_id_idx" ON "account_agent_summaries" ("user_id");

CREATE TABLE "account_summaries" (
    "user_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "runs" INTEGER NOT NULL DEFAULT 0,
    "threads" INTEGER NOT NULL DEFAULT 0,
    "last_seen" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "account_summaries_pkey" PRIMARY KEY ("user_id")
);
CREATE INDEX "account_summaries_last_seen_idx" ON "account_summaries" ("last_seen" DESC, "user_id" DESC);

-- The per-account rows from the per-agent ones (after a deletion, or an agent's deletion started).
CREATE FUNCTION refresh_account_summaries(users text[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM account_summaries s WHERE s.user_id = ANY(users)
    AND NOT EXISTS (SELECT 1 FROM account_agent_summaries a WHERE a.user_id = s.user_id);
  INSERT INTO account_summaries AS s (user_id, agent_id, runs, threads, last_seen)
  SELECT user_id, (array_agg(agent_id ORDER BY last_seen DESC, agent_id))[1], sum(runs), sum(threads), max(last_seen)
  FROM account_agent_summaries WHERE user_id = ANY(users)
  GROUP BY user_id ORDER BY user_id
  ON CONFLICT (user_id) DO UPDATE SET agent_id = EXCLUDED.agent_id, runs = EXCLUDED.runs, threads = EXCLUDED.threads, last_seen = EXCLUDED.last_seen;
$$;

-- New activity (runs when is_run, else messages): counts added, newest times raised. Threads are
-- counted for an account when their row is created (xmax = 0 on a row just inserted).
CREATE FUNCTION add_activity(agents text[], users text[], threads text[], ats timestamptz[], is_run boolean) RETURNS void LANGUAGE sql AS $$
  WITH acts AS (SELECT * FROM unnest(agents, users, threads, ats) AS x(agent_id, user_id, thread_id, at)),
  thread_rows AS (
    INSERT INTO thread_summaries AS s (agent_id, user_id, thread_id, messages, runs, last_at)
    SELECT agent_id, COALESCE(user_id, ''), thread_id, CASE WHEN is_run THEN 0 ELSE count(*) END, CASE WHEN is_run THEN count(*) ELSE 0 END, max(at)
    FROM acts WHERE thread_id IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (agent_id, user_id, thread_id) DO UPDATE SET
      messages = s.messages + EXCLUDED.messages, runs = s.runs + EXCLUDED.runs, last_at = GREATEST(s.last_at, EXCLUDED.last_at)
    RETURNING s.agent_id, s.user_id, (s.xmax = 0) AS created
  ),
  new_threads AS (SELECT agent_id, user_id, count(*)::int AS n FROM thread_rows WHERE created AND user_id <> '' GROUP BY 1, 2),
  per_agent AS (
    SELECT a.agent_id, a.user_id, CASE WHEN is_run THEN a.n ELSE 0 END AS runs, COALESCE(t.n, 0) AS threads, a.at
    FROM (SELECT agent_id, user_id, count(*)::int AS n, max(at) AS at FROM acts WHERE user_id IS NOT NULL GROUP BY 1, 2) a
    LEFT JOIN new_threads t USING (agent_id, user_id)
  ),
  agent_rows AS (
    INSERT INTO account_agent_summaries AS s (agent_id, user_id, runs, threads, last_seen)
    SELECT agent_id, user_id, runs, threads, at FROM per_agent ORDER BY 1, 2
    ON CONFLICT (agent_id, user_id) DO UPDATE SET
      runs = s.runs + EXCLUDED.runs, threads = s.threads + EXCLUDED.threads, last_seen = GREATEST(s.last_seen, EXCLUDED.last_seen)
    RETURNING 1
  )
  INSERT INTO account_summaries AS s (user_id, agent_id, runs, threads, last_seen)
  SELECT user_id, (array_agg(agent_id ORDER BY at DESC, agent_id))[1], sum(runs), sum(threads), max(at)
  FROM per_agent GROUP BY user_id ORDER BY user_id
  ON CONFLICT (user_id) DO UPDATE SET
    runs = s.runs + EXCLUDED.runs, threads = s.threads + EXCLUDED.threads,
    agent_id = CASE WHEN EXCLUDED.last_seen >= s.last_seen THEN EXCLUDED.agent_id ELSE s.agent_id END,
    last_seen = GREATEST(s.last_seen, EXCLUDED.last_seen);
$$;

-- Deleted activity: counts taken off; a newest time is read again from what is left only when the
-- deleted rows held it; rows with nothing left go. Summaries of an agent whose deletion started
-- are gone already, so its batches find nothing to change.
CREATE FUNCTION remove_activity(agents text[], users text[], threads text[], ats timestamptz[], is_run boolean) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE thread_summaries s SET
    messages = s.messages - CASE WHEN is_run THEN 0 ELSE g.n END,
    runs = s.runs - CASE WHEN is_run THEN g.n ELSE 0 END,
    last_at = CASE WHEN g.at < s.last_at THEN s.last_at ELSE COALESCE(GREATEST(
      (SELECT max(m.timestamp) FROM conversation_messages m WHERE m.agent_id = s.agent_id AND m.user_id = s.user_id AND m.thread_id = s.thread_id),
      (SELECT max(w.created_at) FROM workflows w WHERE w.agent_id = s.agent_id AND w.thread_id = s.thread_id
         AND (w.user_id = s.user_id OR (s.user_id = '' AND w.user_id IS NULL)))), s.last_at) END
  FROM (SELECT agent_id, COALESCE(user_id, '') AS user_id, thread_id, count(*)::int AS n, max(at) AS at
        FROM unnest(agents, users, threads, ats) AS x(agent_id, user_id, thread_id, at) WHERE thread_id IS NOT NULL GROUP BY 1, 2, 3) g
  WHERE (s.agent_id, s.user_id, s.thread_id) = (g.agent_id, g.user_id, g.thread_id);

  WITH emptied AS (
    DELETE FROM thread_summaries s
    USING (SELECT DISTINCT agent_id, COALESCE(user_id, '') AS user_id, thread_id FROM unnest(agents, users, threads) AS x(agent_id, user_id, thread_id) WHERE thread_id IS NOT NULL) g
    WHERE (s.agent_id, s.user_id, s.thread_id) = (g.agent_id, g.user_id, g.thread_id) AND s.messages <= 0 AND s.runs <= 0
    RETURNING s.agent_id, s.user_id
  ),
  lost AS (SELECT agent_id, user_id, count(*)::int AS n FROM emptied WHERE user_id <> '' GROUP BY 1, 2)
  UPDATE account_agent_summaries s SET
    runs = s.runs - CASE WHEN is_run THEN a.n ELSE 0 END,
    threads = s.threads - COALESCE(l.n, 0),
    last_seen = CASE WHEN a.at < s.last_seen THEN s.last_seen ELSE COALESCE(GREATEST(
      (SELECT max(m.timestamp) FROM conversation_messages m WHERE m.user_id = s.user_id AND m.agent_id = s.agent_id),
      (SELECT max(w.created_at) FROM workflows w WHERE w.agent_id = s.agent_id AND w.user_id = s.user_id)), s.last_seen) END
  FROM (SELECT agent_id, user_id, count(*)::int AS n, max(at) AS at FROM unnest(agents, users, ats) AS x(agent_id, user_id, at)
        WHERE user_id IS NOT NULL GROUP BY 1, 2) a
  LEFT JOIN lost l USING (agent_id, user_id)
  WHERE (s.agent_id, s.user_id) = (a.agent_id, a.user_id);

  DELETE FROM account_agent_summaries s
  USING (SELECT DISTINCT agent_id, user_id FROM unnest(agents, users) AS x(agent_id, user_id) WHERE user_id IS NOT NULL) g
  WHERE (s.agent_id, s.user_id) = (g.agent_id, g.user_id) AND s.runs <= 0 AND s.threads <= 0;

  PERFORM refresh_account_summaries(ARRAY(SELECT DISTINCT u FROM unnest(users) u WHERE u IS NOT NULL));
END $$;

CREATE FUNCTION runs_activity() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM add_activity(array_agg(agent_id), array_agg(user_id), array_agg(thread_id), array_agg(created_at), true) FROM new_rows
      WHERE user_id IS NOT NULL OR thread_id IS NOT NULL HAVING count(*) > 0;
  ELSE
    PERFORM remove_activity(array_agg(agent_id), array_agg(user_id), array_agg(thread_id), array_agg(created_at), true) FROM old_rows
      WHERE user_id IS NOT NULL OR thread_id IS NOT NULL HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION messages_activity() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM add_activity(array_agg(agent_id), array_agg(user_id), array_agg(thread_id), array_agg(timestamp), false) FROM new_rows HAVING count(*) > 0;
  ELSE
    PERFORM remove_activity(array_agg(agent_id), array_agg(user_id), array_agg(thread_id), array_agg(timestamp), false) FROM old_rows HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END $$;

-- Backfill from what is stored (agents being deleted are left out, as the pages hide them).
INSERT INTO thread_summaries (agent_id, user_id, thread_id, messages, runs, last_at)
SELECT agent_id, COALESCE(user_id, ''), thread_id, sum(messages), sum(runs), max(at) FROM (
  SELECT agent_id, user_id, thread_id, 1 AS messages, 0 AS runs, timestamp AS at FROM conversation_messages
  UNION ALL
  SELECT agent_id, user_id, thread_id, 0, 1, created_at FROM workflows WHERE thread_id IS NOT NULL
) t WHERE agent_id NOT IN (SELECT id FROM agents WHERE deleting_at IS NOT NULL)
GROUP BY 1, 2, 3;

INSERT INTO account_agent_summaries (agent_id, user_id, runs, threads, last_seen)
SELECT a.agent_id, a.user_id, a.runs, COALESCE(t.n, 0), a.last_seen FROM (
  SELECT agent_id, user_id, sum(runs)::int AS runs, max(at) AS last_seen FROM (
    SELECT agent_id, user_id, 0 AS runs, timestamp AS at FROM conversation_messages
    UNION ALL
    SELECT agent_id, user_id, 1, created_at FROM workflows WHERE user_id IS NOT NULL
  ) x WHERE agent_id NOT IN (SELECT id FROM agents WHERE deleting_at IS NOT NULL)
  GROUP BY 1, 2
) a
LEFT JOIN (SELECT agent_id, user_id, count(*)::int AS n FROM thread_summaries WHERE user_id <> '' GROUP BY 1, 2) t USING (agent_id, user_id);

INSERT INTO account_summaries (user_id, agent_id, runs, threads, last_seen)
SELECT user_id, (array_agg(agent_id ORDER BY last_seen DESC, agent_id))[1], sum(runs), sum(threads), max(last_seen)
FROM account_agent_summaries GROUP BY user_id;

CREATE TRIGGER workflows_inserted_activity AFTER INSERT ON workflows REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION runs_activity();
CREATE TRIGGER workflows_deleted_activity AFTER DELETE ON workflows REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION runs_activity();
CREATE TRIGGER messages_inserted_activity AFTER INSERT ON conversation_messages REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION messages_activity();
CREATE TRIGGER messages_deleted_activity AFTER DELETE ON conversation_messages REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION messages_activity();

-- The unfiltered runs list: newest (or oldest) first through one index.
CREATE INDEX "workflows_created_at_id_idx" ON "workflows" ("created_at" DESC, "id" DESC);

-- Hourly conversation retention reads an agent's oldest messages.
CREATE INDEX "conversation_messages_agent_id_timestamp_idx" ON "conversation_messages" ("agent_id", "timestamp");

-- Quote expiry finds the rows quoting an agent's messages by containment.
CREATE INDEX "persona_proposals_evidence_idx" ON "persona_proposals" USING GIN ("evidence" jsonb_path_ops);
CREATE INDEX "persona_history_evidence_idx" ON "persona_history" USING GIN ("evidence" jsonb_path_ops);

-- Similarity search's candidates: runs sharing one of the query vector's largest coordinates.
-- For the offline embedder (a few dozen non-zero coordinates) every run with a positive cosine
-- shares one; stripped runs (empty vector) have none.
CREATE FUNCTION embedding_keys(v real[]) RETURNS smallint[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT COALESCE(array_agg(i ORDER BY i), '{}') FROM (
    SELECT (i - 1)::smallint AS i FROM unnest(v) WITH ORDINALITY AS u(x, i) WHERE x <> 0 ORDER BY abs(x) DESC, i LIMIT 32
  ) k
$$;
ALTER TABLE "workflows" ADD COLUMN "embedding_keys" SMALLINT[] GENERATED ALWAYS AS (embedding_keys("embedding")) STORED;
CREATE INDEX "workflows_embedding_keys_idx" ON "workflows" USING GIN ("embedding_keys");
