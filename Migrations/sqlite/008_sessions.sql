-- Dashboard sign-ins: the browser's cookie holds a random session id, never a token; only its
-- SHA-256 is kept. A session ends when it expires, when its browser signs out, or when its token
-- is revoked.

CREATE TABLE session (
    id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    tokenId INTEGER NOT NULL REFERENCES token(id) ON DELETE CASCADE,
    createdAt REAL NOT NULL,
    expiresAt REAL NOT NULL,
    revokedAt REAL
) STRICT;
