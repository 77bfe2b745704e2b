-- A test target of a run that selected its tests by what changed (`record --select`): its hash,
-- the tests the runner listed for it and how many of them passed, and the run that vouched for
-- it when selection left it out. A run vouches for a target's hash when it passed every listed
-- test and was not interrupted.

CREATE TABLE target_run (
    id INTEGER PRIMARY KEY,
    runId INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    target TEXT NOT NULL,
    at REAL NOT NULL,
    hash TEXT NOT NULL,
    tests INTEGER NOT NULL,
    passed INTEGER NOT NULL,
    vouchedBy TEXT,
    skipped INTEGER,
    UNIQUE (runId, target)
) STRICT;
CREATE INDEX target_run_by_hash ON target_run(hash);
