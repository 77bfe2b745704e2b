-- Two changes for many uploads at once.
--
-- A result names its test's row without a foreign key. The key's check share-locks the test's row
-- for every result written, and PostgreSQL records the shared locks of concurrent uploads of one
-- project on one row as multixacts: at 32 clients the check took most of an upload's time. It
-- guarded nothing the store does not: a test's row is created, and committed, before any result
-- names it, and no test row is ever deleted.
--
-- A run summary's two per-test arrays are stored uncompressed: they are numbers, which pglz barely
-- shrinks, at the cost of compressing them on every upload.

ALTER TABLE result DROP CONSTRAINT result_testid_fkey;
ALTER TABLE run_summary ALTER COLUMN outcomes SET STORAGE EXTERNAL, ALTER COLUMN seconds SET STORAGE EXTERNAL;
