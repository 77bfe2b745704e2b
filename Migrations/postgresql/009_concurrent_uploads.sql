-- Two changes for many uploads at once.
--
-- A result names its test's row without a foreign key. The key's check share-locks the test's row
-- for every result written, and PostgreSQL records the shared locks of concurrent uploads of one
-- project on one row as multixacts: without the key, 32 clients stored a quarter more results a
-- second and their p99 fell from 1.2–1.5 s to 1.0 s. It guarded nothing the store does not: a
-- test's row is created, and committed, before any result names it, and no test row is ever
-- deleted.
--
-- A run summary's two per-test arrays are stored uncompressed: for a run of 2,000 tests, pglz
-- took 0.15 ms of the upload's one connection to shrink `outcomes` from 18 KB to 6.5 KB (about
-- 8 % of the run's result rows), and `seconds` not at all.

ALTER TABLE result DROP CONSTRAINT IF EXISTS result_testid_fkey;
ALTER TABLE run_summary ALTER COLUMN outcomes SET STORAGE EXTERNAL, ALTER COLUMN seconds SET STORAGE EXTERNAL;
