-- What the reports read instead of every result, kept up to date at ingest: one row per run with
-- what each of its tests came to, and the run of each predicate evaluation.

CREATE TABLE run_summary (
    runId BIGINT PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,
    tests BIGINT NOT NULL,                  -- tests with results in the run
    failed BIGINT NOT NULL,                 -- tests whose final attempt failed
    outcomes BYTEA NOT NULL,                -- per test, by test row: row (8 bytes) and outcome code (1)
    seconds BYTEA NOT NULL                  -- per test, in the same order: seconds of all attempts (8)
);

ALTER TABLE predicate ADD COLUMN runId BIGINT REFERENCES run(id) ON DELETE CASCADE;
UPDATE predicate SET runId = (SELECT runId FROM result WHERE result.id = predicate.resultId);
CREATE INDEX predicate_by_run ON predicate(runId);
