-- What the culprit report and the failure clusters read of a run from its summary instead of from
-- every result: whether two of its attempts ran at once or none did, and the highest load average
-- its attempts sampled. A summary stored before has NULL in both, which reads as "not known": such
-- a run is read whole.
ALTER TABLE run_summary ADD COLUMN concurrent BOOLEAN;
ALTER TABLE run_summary ADD COLUMN load DOUBLE PRECISION;
