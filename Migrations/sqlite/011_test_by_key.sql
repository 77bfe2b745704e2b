-- A test is looked up by its id alone when no project is named (`show`, a run's traces, an
-- agent's test_detail): the (project, key) index cannot serve that, so each lookup scanned every
-- stored result.
CREATE INDEX test_by_key ON test(key);
