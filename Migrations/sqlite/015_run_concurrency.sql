-- What the culprit report and the failure clusters read of a run from its summary instead of from
-- every result: whether two of its attempts ran at once (1) or none did (0), and the highest load
-- average its attempts sampled. In a run where none ran at once, no attempt has another beside
-- it, and the report reads nothing more of the run. A summary stored before has NULL in both,
-- which reads as "not known"; the summaries are refreshed once.
ALTER TABLE run_summary ADD COLUMN concurrent INTEGER;
ALTER TABLE run_summary ADD COLUMN load REAL;
