-- A fix `verify` proved on a revision, followed until it lands on the default branch and holds
-- there: a row per verification, the newest of a test the one followed. `body` is the fix as JSON
-- (its revision, evidence, state and counts); `state` repeats its state.
CREATE TABLE fix (
    id INTEGER PRIMARY KEY,
    project TEXT NOT NULL,
    test TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('fix-pending', 'fix-landed', 'released', 'regressed')),
    body TEXT NOT NULL
) STRICT;

CREATE INDEX fix_by_test ON fix(project, test, id);
