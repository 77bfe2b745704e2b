-- The first schema: runs, tests, results per attempt and what happened inside them.
-- Frozen once shipped: change the schema only by adding a numbered file.

CREATE TABLE run (
    id INTEGER PRIMARY KEY,
    uuid TEXT NOT NULL UNIQUE,              -- the run's id in the event stream
    project TEXT NOT NULL,
    source TEXT NOT NULL,                   -- xctest, swift-testing, junit, tap, bacon, rspec…
    startedAt REAL NOT NULL,                -- seconds since 1970
    endedAt REAL,
    outcome TEXT,                           -- from run.end; NULL while running or interrupted
    revision TEXT,
    branch TEXT,
    ciProvider TEXT,
    ciBuild TEXT,
    ciJob TEXT,
    ciUrl TEXT,
    ciAttempt INTEGER,
    host TEXT,
    configuration TEXT NOT NULL DEFAULT '',
    labels TEXT                             -- JSON object
) STRICT;
CREATE INDEX run_by_project_and_start ON run(project, startedAt);

CREATE TABLE test (
    id INTEGER PRIMARY KEY,
    project TEXT NOT NULL,
    key TEXT NOT NULL,                      -- the stable test id
    suite TEXT,
    name TEXT,
    file TEXT,
    line INTEGER,
    layer TEXT,                             -- declared by the producer; NULL = classify
    tags TEXT,                              -- JSON array
    UNIQUE (project, key)
) STRICT;

CREATE TABLE result (
    id INTEGER PRIMARY KEY,
    runId INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    testId INTEGER NOT NULL REFERENCES test(id) ON DELETE CASCADE,
    attempt INTEGER NOT NULL,
    startedAt REAL NOT NULL,
    duration REAL,
    outcome TEXT,                           -- NULL while the attempt runs
    message TEXT,
    UNIQUE (runId, testId, attempt)
) STRICT;
CREATE INDEX result_by_test ON result(testId);

CREATE TABLE issue (
    id INTEGER PRIMARY KEY,
    resultId INTEGER NOT NULL REFERENCES result(id) ON DELETE CASCADE,
    at REAL NOT NULL,
    message TEXT NOT NULL,
    file TEXT,
    line INTEGER,
    kind TEXT
) STRICT;
CREATE INDEX issue_by_result ON issue(resultId);

CREATE TABLE activity (
    id INTEGER PRIMARY KEY,
    resultId INTEGER NOT NULL REFERENCES result(id) ON DELETE CASCADE,
    key TEXT NOT NULL,                      -- the producer's activity id, unique in the run
    parentId INTEGER REFERENCES activity(id) ON DELETE CASCADE,
    name TEXT,
    startedAt REAL NOT NULL,
    endedAt REAL,
    outcome TEXT
) STRICT;
CREATE INDEX activity_by_result ON activity(resultId);

CREATE TABLE capture (
    id INTEGER PRIMARY KEY,
    resultId INTEGER NOT NULL REFERENCES result(id) ON DELETE CASCADE,
    activityId INTEGER REFERENCES activity(id) ON DELETE SET NULL,
    at REAL NOT NULL,
    verifier TEXT NOT NULL,
    fields TEXT                             -- JSON object
) STRICT;
CREATE INDEX capture_by_result ON capture(resultId);

CREATE TABLE predicate (
    id INTEGER PRIMARY KEY,
    resultId INTEGER NOT NULL REFERENCES result(id) ON DELETE CASCADE,
    activityId INTEGER REFERENCES activity(id) ON DELETE SET NULL,
    at REAL NOT NULL,
    name TEXT NOT NULL,
    expect TEXT NOT NULL,                   -- holds / doesntHold
    held INTEGER NOT NULL,
    attempts INTEGER NOT NULL,
    waited REAL NOT NULL,
    timeout REAL NOT NULL,
    interval REAL,
    file TEXT,
    line INTEGER
) STRICT;
CREATE INDEX predicate_by_result ON predicate(resultId);
