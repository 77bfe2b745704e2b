-- What a run is for, when it is not a run of the suite ('verification'): NULL for a run of the
-- suite. Reports read only runs of the suite.

ALTER TABLE run ADD COLUMN kind TEXT;
