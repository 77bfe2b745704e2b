-- Files tests attached (screenshots, logs, recordings): recorded by name, type and size; the
-- payload itself stays where it was saved, when it was.

CREATE TABLE attachment (
    id INTEGER PRIMARY KEY,
    resultId INTEGER NOT NULL REFERENCES result(id) ON DELETE CASCADE,
    activityId INTEGER REFERENCES activity(id) ON DELETE SET NULL,
    at REAL NOT NULL,
    name TEXT NOT NULL,
    mediaType TEXT,
    size INTEGER,
    path TEXT
) STRICT;
CREATE INDEX attachment_by_result ON attachment(resultId);
