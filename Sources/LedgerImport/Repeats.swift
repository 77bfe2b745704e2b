/// How a report's second test of one id is read, where the report itself does not say.
///
/// A JUnit file may hold two `<testcase>`s of one classname and name: Mocha's two `it`s of one
/// title, RSpec's shared examples, or one test's retries as some tools write them. Read as
/// retries, a first failure and a later pass would show a failing build as flaky; so a repeat is a
/// retry only where the file marks it (fastlane trainer's `repetition` property) or its tool is
/// known to write retries so, and otherwise a test of its own, stored as `id (2)`, `id (3)`…
public enum Repeats: String, CaseIterable, Sendable {
    /// Every repeat is another attempt of the test it repeats.
    case retries
    /// Every repeat is a test of its own.
    case tests
}
