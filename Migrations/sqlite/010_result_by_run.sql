-- The test stored just before an attempt in its run (`report culprit`'s preceding test) is found by
-- walking back from the attempt's row within its run. Without this index SQLite sorted the whole
-- run's results for each attempt, or, for a run's first test, walked back through every older run:
-- seconds on a ledger of a million results.
CREATE INDEX result_by_run ON result(runId, id);
