-- Quarantine: tests muted (they run, their failure does not fail the build) or skipped (not run),
-- and the audit trail of every change to it, which is only ever appended to.

CREATE TABLE quarantine (
    project TEXT NOT NULL,
    test TEXT NOT NULL,                     -- the test id, as test.key
    configuration TEXT NOT NULL,            -- the one it applies to; '*' for every configuration
    mode TEXT NOT NULL CHECK (mode IN ('mute', 'skip')),
    reason TEXT NOT NULL,
    actor TEXT NOT NULL,                    -- who quarantined it; `testledger` for the automatic policy
    since REAL NOT NULL,
    until REAL,                             -- when it ends by itself; NULL until removed
    automatic INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (project, test, configuration)
) STRICT;

CREATE TABLE quarantine_log (
    id INTEGER PRIMARY KEY,
    project TEXT NOT NULL,
    test TEXT NOT NULL,
    configuration TEXT NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('add', 'change', 'remove')),
    mode TEXT CHECK (mode IN ('mute', 'skip')),
    reason TEXT NOT NULL,
    actor TEXT NOT NULL,
    at REAL NOT NULL,
    until REAL,
    automatic INTEGER NOT NULL DEFAULT 0,
    evidence TEXT                           -- JSON: what an automatic change was based on
) STRICT;

CREATE INDEX quarantine_log_by_project ON quarantine_log(project, id);

CREATE TRIGGER quarantine_log_is_not_rewritten BEFORE UPDATE ON quarantine_log
BEGIN
    SELECT RAISE(ABORT, 'the quarantine log is only appended to');
END;

CREATE TRIGGER quarantine_log_is_not_erased BEFORE DELETE ON quarantine_log
BEGIN
    SELECT RAISE(ABORT, 'the quarantine log is only appended to');
END;

-- A result of a test muted while it ran: stored as it happened, flagged so the build it failed
-- is known to have passed.
ALTER TABLE result ADD COLUMN muted INTEGER NOT NULL DEFAULT 0;

-- A third token scope: `manage` changes the quarantine over the API. Write tokens, which CI jobs
-- hold, cannot: a job must not release its own tests. SQLite changes a CHECK by rebuilding.
CREATE TABLE token_with_manage (
    id INTEGER PRIMARY KEY,
    project TEXT NOT NULL,
    scope TEXT NOT NULL CHECK (scope IN ('read', 'write', 'manage')),
    hash TEXT NOT NULL UNIQUE,              -- hex SHA-256 of the token
    prefix TEXT NOT NULL,                   -- its first characters, to name it in lists
    createdAt REAL NOT NULL,
    revokedAt REAL
) STRICT;
INSERT INTO token_with_manage SELECT id, project, scope, hash, prefix, createdAt, revokedAt FROM token;
DROP TABLE token;
ALTER TABLE token_with_manage RENAME TO token;
