-- The totals a runner printed, for output that names only some of its tests (Bacon's Test::Unit
-- style names only those that did not pass): NULL when the run's results are all there is.

ALTER TABLE run ADD COLUMN reportedTests INTEGER;
ALTER TABLE run ADD COLUMN reportedFailures INTEGER;
ALTER TABLE run ADD COLUMN reportedErrors INTEGER;
