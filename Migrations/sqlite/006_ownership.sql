-- Who owns a project's tests: its CODEOWNERS file and .testledger.yml's owner rules, as the newest
-- checkout that recorded or sent a run read them (a JSON object; see Ownership in LedgerCore).

CREATE TABLE ownership (
    project TEXT PRIMARY KEY,
    document TEXT NOT NULL,
    updatedAt REAL NOT NULL
) STRICT;
