-- Access tokens for `testledger serve`: stored only as SHA-256 hashes.

CREATE TABLE token (
    id INTEGER PRIMARY KEY,
    project TEXT NOT NULL,
    scope TEXT NOT NULL CHECK (scope IN ('read', 'write')),
    hash TEXT NOT NULL UNIQUE,              -- hex SHA-256 of the token
    prefix TEXT NOT NULL,                   -- its first characters, to name it in lists
    createdAt REAL NOT NULL,
    revokedAt REAL
) STRICT;
