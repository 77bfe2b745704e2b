import LedgerCore

/// The errors the JUnit importer reports, each naming what is wrong and how to fix it.
enum JUnitInputErrors {
    static func unreadable(_ source: String, _ reason: String) -> LedgerInputError {
        LedgerInputError(
            source: source, problem: "cannot read the file: \(reason)",
            fix: "check the path and that the file is readable")
    }

    static func notJUnit(_ source: String, root: String?, line: Int?) -> LedgerInputError {
        let found = root.map { "the root element is <\($0)>" } ?? "no XML root element was found"
        return LedgerInputError(
            source: source, line: line,
            problem: "not JUnit XML: \(found), not <testsuites> or <testsuite>",
            fix: "pass the JUnit report the test runner wrote, such as pytest --junitxml, "
                + "swift test --xunit-output or Surefire's TEST-*.xml, or choose the right format")
    }

    static func riskyDoctype(_ source: String, line: Int?) -> LedgerInputError {
        LedgerInputError(
            source: source, line: line,
            problem: "the document type declaration defines entities or loads an external DTD, "
                + "which JUnit XML never needs and which is refused for safety",
            fix: "remove the <!DOCTYPE …> declaration from the file")
    }

    static func unsafeEncoding(_ source: String, _ encoding: String) -> LedgerInputError {
        LedgerInputError(
            source: source, line: 1,
            problem: "the XML declaration names the encoding \(encoding), which is not read (only UTF-8, UTF-16, "
                + "ASCII and Latin-1 are)",
            fix: "convert the file to UTF-8, e.g. `iconv -f \(encoding) -t UTF-8`, and fix its declaration")
    }

    static func emptyInstruction(_ source: String, line: Int) -> LedgerInputError {
        LedgerInputError(
            source: source, line: line,
            problem: "a processing instruction without data (<?name?>), which the XML parser cannot read safely",
            fix: "remove the processing instruction: JUnit XML needs none but the XML declaration")
    }

    static func longProlog(_ source: String, limit: Int) -> LedgerInputError {
        LedgerInputError(
            source: source,
            problem: "no root element in the first \(limit / 1024) KB: not JUnit XML, or a "
                + "prolog (comments, document type declaration) longer than JUnit reports have",
            fix: "pass the JUnit report the test runner wrote")
    }

    static func empty(_ source: String) -> LedgerInputError {
        LedgerInputError(
            source: source,
            problem: "the file has no XML element: it is empty or holds only an XML declaration",
            fix: "check that the test runner finished writing the report")
    }

    /// A libxml2 parse error, by its code (the same numbers on Linux and Apple platforms).
    static func malformed(_ source: String, code: Int, line: Int, column: Int) -> LedgerInputError {
        let what: String
        switch code {
        case 4: what = "no XML found (the file is empty, binary or not XML)"
        case 5: what = "the document ends early or has content after its root element"
        case 9: what = "a character that XML does not allow"
        case 26, 27, 28, 29, 30: what = "an entity reference that is undeclared or not allowed"
        case 76: what = "a closing tag that does not match the open element"
        case 77: what = "an element that is never closed"
        case 89: what = "an entity that refers to itself or expands too much"
        default: what = "not well-formed XML (parser error \(code))"
        }
        let fix =
            code == 4
            ? "pass the JUnit XML report the test runner wrote; this file is not XML"
            : "the report may be truncated, because the runner crashed or is still writing, "
                + "or damaged: re-run the tests to regenerate it"
        return LedgerInputError(
            source: source, line: line > 0 ? line : nil,
            problem: "malformed XML at column \(column): \(what)", fix: fix)
    }
}
