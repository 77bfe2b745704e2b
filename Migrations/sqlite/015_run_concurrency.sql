-- Whether two of a run's attempts ran at once (1) or none did (0): in a run where none did, no
-- attempt has another beside it, and the culprit report reads nothing more of the run than its
-- summary. NULL, for a summary stored before, reads as maybe; the summaries are refreshed once.
ALTER TABLE run_summary ADD COLUMN concurrent INTEGER;
