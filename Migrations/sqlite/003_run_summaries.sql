-- What the reports read instead of every result, kept up to date at ingest: one row per run with
-- what each of its tests came to, and the run of each predicate evaluation.

CREATE TABLE run_summary (
    runId INTEGER PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,
    tests INTEGER NOT NULL,                 -- tests with results in the run
    failed INTEGER NOT NULL,                -- tests whose final attempt failed
    outcomes BLOB NOT NULL,                 -- per test, by test row: row (8 bytes) and outcome code (1)
    seconds BLOB NOT NULL                   -- per test, in the same order: seconds of all attempts (8)
) STRICT;

ALTER TABLE predicate ADD COLUMN runId INTEGER REFERENCES run(id) ON DELETE CASCADE;
UPDATE predicate SET runId = (SELECT runId FROM result WHERE result.id = predicate.resultId);
CREATE INDEX predicate_by_run ON predicate(runId);
