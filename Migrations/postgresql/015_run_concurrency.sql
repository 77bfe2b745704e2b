-- Whether two of a run's attempts ran at once or none did: in a run where none did, no attempt
-- has another beside it, and the culprit report reads nothing more of the run than its summary.
-- NULL, for a summary stored before, reads as maybe: such a run is read whole.
ALTER TABLE run_summary ADD COLUMN concurrent BOOLEAN;
