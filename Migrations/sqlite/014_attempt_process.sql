-- The process an attempt ran in, the machine's load while it ran (the higher of the load averages
-- sampled at its start and its end) and the CPU seconds its process used meanwhile: what the
-- culprit report compares to tell a test that ran beside another from one that ran after it, and
-- a loaded machine from a slow test.

ALTER TABLE result ADD COLUMN process INTEGER;
ALTER TABLE result ADD COLUMN load REAL;
ALTER TABLE result ADD COLUMN cpu REAL;
