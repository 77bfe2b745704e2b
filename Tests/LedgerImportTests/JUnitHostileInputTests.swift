import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

@testable import LedgerImport

/// Input meant to harm, or merely broken: refused with a clear error, quickly, leaking nothing.
struct JUnitHostileInputTests {
    static let xxe = """
        <?xml version="1.0"?>
        <!DOCTYPE testsuites [<!ENTITY x SYSTEM "file:///etc/passwd">]>
        <testsuites><testsuite name="s"><testcase classname="c" name="n"><failure message="m">leak:&x;</failure></testcase></testsuite></testsuites>
        """

    static var billionLaughs: String {
        var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE testsuites [\n<!ENTITY lol0 \"lol\">\n"
        for level in 1...9 {
            text += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">\n"
        }
        return text
            + "]>\n<testsuites><testsuite name=\"s\"><testcase classname=\"c\" name=\"&lol9;\">"
            + "<failure message=\"m\">&lol9;</failure></testcase></testsuite></testsuites>\n"
    }

    @Test func externalEntityDeclarationIsRefusedBeforeParsing() throws {
        let error = try JUnitHarness.failure(Self.xxe)
        #expect(error.source == JUnitHarness.sourceName)
        #expect(error.line == 2)
        #expect(error.problem.contains("document type declaration"))
        #expect(error.fix == "remove the <!DOCTYPE …> declaration from the file")
        #expect(!error.description.contains("root:"))
    }

    /// Found by fuzzing: Debian's libxml2 dereferences null on a UTF-7 declaration over bytes that
    /// are not UTF-7, crashing the process (and a server that reads an upload). Such an encoding is
    /// refused before the parser sees it.
    @Test(arguments: ["UTF-7", "utf-7", "EBCDIC-US", "x-unknown"])
    func anEncodingTheParserCannotReadSafelyIsRefused(encoding: String) throws {
        // Also when the declaration is not closed, which the parser reads all the same.
        let unclosed = try JUnitHarness.failure(
            #"<?xml version="1.0" encoding="\#(encoding)"\#u{EF}>"# + "\n<testsuite/>")
        #expect(unclosed.line == 1 && unclosed.problem.contains("names the encoding \(encoding)"))
        let error = try JUnitHarness.failure(
            #"<?xml version="1.0" encoding='\#(encoding)'?>"# + "\n"
                + #"<testsuite name="s"><testcase classname="A" name="\#u{CA}\#u{CA}"/></testsuite>"#)
        #expect(error.line == 1)
        #expect(error.problem.contains("names the encoding \(encoding), which is not read"))
        #expect(error.fix?.contains("iconv -f \(encoding) -t UTF-8") == true)
    }

    /// Found by fuzzing: Foundation's XMLParser on Linux reads a processing instruction's missing
    /// data as a C string and crashes. One outside comments and CDATA is refused first, with its line.
    @Test(arguments: ["<?x?>", "<?x ?>", "<?xml-stylesheet\n?>"])
    func aProcessingInstructionWithoutDataIsRefused(instruction: String) throws {
        let error = try JUnitHarness.failure(
            "<testsuite name=\"s\">\n<testcase classname=\"A\" name=\"b\"/>\n\(instruction)\n</testsuite>")
        #expect(error.line == 3)
        #expect(error.problem.contains("processing instruction without data"))
    }

    @Test func instructionsInCommentsAndCDATAOrWithDataAreLeftAlone() throws {
        let run = try JUnitHarness.run(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <?xml-stylesheet href="junit.xsl"?>
            <testsuite name="s"><!-- <?x?> -->
            <testcase classname="A" name="b"><system-out><![CDATA[print("<?x?>")]]></system-out></testcase>
            </testsuite>
            """)
        #expect(run.testIDs == ["A/b"])
    }

    @Test func theScanHoldsAcrossChunks() {
        // A data-less instruction cut by a chunk boundary, after a CDATA section cut the same way.
        var scan = JUnitInstructionScan()
        #expect(scan.feed(Data("<a><![CDA".utf8), last: false) == nil)
        #expect(scan.feed(Data("TA[ <?no?> ]]><".utf8), last: false) == nil)
        #expect(scan.feed(Data("?x".utf8), last: false) == nil)
        #expect(scan.feed(Data("?></a>".utf8), last: true) == 23, "the `<` ending the second chunk")
    }

    /// Found by fuzzing: NUL bytes before the XML declaration make libxml2 guess UCS-4, and the
    /// declaration's UTF-8 then crashes it. Such input is refused as not XML before it parses.
    @Test func nulBytesBeforeTheRootAreNotXML() throws {
        for prefix in [Data([0, 0, 0]), Data("<?xml version=\"1.0\"?>\0".utf8)] {
            let error = try JUnitHarness.failure(
                data: prefix + Data(#"<?xml version="1.0" encoding="utf-8"?><testsuite name="s"/>"#.utf8))
            #expect(error.line == 1 && error.problem.contains("no XML found"), "\(error)")
        }
    }

    @Test func declaredUTF8AndLatin1AreRead() throws {
        for encoding in ["UTF-8", "ISO-8859-1", "us-ascii"] {
            let run = try JUnitHarness.run(
                #"<?xml version="1.0" encoding="\#(encoding)"?><testsuite name="s"><testcase classname="A" name="b"/></testsuite>"#
            )
            #expect(run.testIDs == ["A/b"], "\(encoding)")
        }
    }

    @Test func externalEntityIsNeverResolvedByTheParserItself() throws {
        // Past the prolog check, as if it had missed the declaration: libxml2 must not load it.
        let run = try Self.parseWithoutPrologCheck(Self.xxe)
        let passwd = (try? String(contentsOfFile: "/etc/passwd", encoding: .utf8)) ?? "root:"
        let firstLine = String(passwd.prefix(while: { $0 != "\n" }))
        let text = "\(run)"
        #expect(!text.contains(firstLine))
        #expect(!text.contains("root:"))
    }

    @Test func externalDTDAndParameterEntitiesAreRefused() throws {
        for doctype in [
            #"<!DOCTYPE testsuites SYSTEM "file:///etc/passwd">"#,
            #"<!DOCTYPE testsuites PUBLIC "-//X//Y" "http://example.com/x.dtd">"#,
            #"<!DOCTYPE testsuites [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>"#,
        ] {
            let error = try JUnitHarness.failure(doctype + "\n<testsuites/>")
            #expect(error.problem.contains("document type declaration"), "\(doctype)")
        }
    }

    @Test func plainDoctypeWithoutEntitiesIsAccepted() throws {
        let run = try JUnitHarness.run(
            "<!DOCTYPE testsuites>\n<testsuites><testsuite name=\"s\"><testcase classname=\"c\" name=\"n\"/></testsuite></testsuites>"
        )
        #expect(run.testIDs == ["c/n"])
    }

    // The time limits guard against a hang only: what shows that no entity was expanded is
    // where each refusal happened, which is the same on any machine.
    @Test(.timeLimit(.minutes(1)))
    func billionLaughsIsRefusedAtItsDeclarationBeforeParsing() throws {
        let error = try JUnitHarness.failure(Self.billionLaughs)
        #expect(error.problem.contains("document type declaration"))
        #expect(error.line == 2)
    }

    @Test(.timeLimit(.minutes(1)))
    func billionLaughsStopsTheParserAtTheFirstReference() throws {
        let error = #expect(throws: LedgerInputError.self) { try Self.parseWithoutPrologCheck(Self.billionLaughs) }
        #expect(error?.problem.contains("an entity that refers to itself or expands too much") == true)
        // The first `&lol9;`, in the testcase's name: libxml2 stops there rather than expanding it.
        #expect(error?.line == 14)
        #expect(error?.problem.contains("at column 69") == true)
    }

    @Test func truncatedFileNamesItsLastLineAndNeverEndsTheRun() throws {
        let xml =
            "<?xml version=\"1.0\"?>\n<testsuites>\n<testsuite name=\"s\">\n<testcase classname=\"c\" name=\"a\"/>\n<testcase classname=\"c\" name=\"b\">"
        let error = try JUnitHarness.failure(xml)
        #expect(error.line == 5)
        #expect(error.problem.contains("malformed XML"))
        #expect(error.fix?.contains("truncated") == true)
        var sink = CollectingSink()
        #expect(throws: LedgerInputError.self) {
            try JUnitImporter().importResults(from: .data(Data(xml.utf8)), context: JUnitHarness.context(), into: &sink)
        }
        // The document is read once, so the tests before the damage were already emitted; the
        // caller discards them on the error (the store rolls the input back). The run never
        // looks finished.
        #expect(sink.records.map(\.event.type) == ["run.start", "test.start", "test.end"])
    }

    @Test func mismatchedTagIsMalformed() throws {
        let error = try JUnitHarness.failure("<testsuites>\n<testsuite name=\"s\">\n</testsuites>")
        #expect(error.line == 3)
        #expect(error.problem.contains("malformed XML"))
    }

    @Test func binaryGarbageIsNotXML() throws {
        var bytes = Data([0x00, 0x01, 0x02, 0x50, 0x4B, 0x03, 0x04, 0xFF, 0xFE])
        bytes.append(contentsOf: (0..<4_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let error = try JUnitHarness.failure(data: bytes)
        #expect(error.problem == "malformed XML at column 1: no XML found (the file is empty, binary or not XML)")
        #expect(error.fix == "pass the JUnit XML report the test runner wrote; this file is not XML")
    }

    @Test func emptyFileSaysSo() throws {
        let error = try JUnitHarness.failure("")
        #expect(error.problem.contains("empty"))
        let blank = try JUnitHarness.failure("  \n\n ")
        #expect(blank.problem.contains("empty"))
    }

    @Test func otherXMLIsNotJUnitAndSaysWhatToDo() throws {
        let error = try JUnitHarness.failure(
            "<?xml version=\"1.0\"?>\n<!-- NUnit -->\n<test-run id=\"2\"><test-suite/></test-run>")
        #expect(error.line == 3)
        #expect(error.problem == "not JUnit XML: the root element is <test-run>, not <testsuites> or <testsuite>")
        #expect(error.fix?.contains("pytest --junitxml") == true)
    }

    @Test func missingFileIsUnreadable() throws {
        var sink = CollectingSink()
        let error = #expect(throws: LedgerInputError.self) {
            try JUnitImporter().importResults(
                from: .file(URL(fileURLWithPath: "/nonexistent/report.xml")), context: JUnitHarness.context(),
                into: &sink)
        }
        #expect(error?.problem.hasPrefix("cannot read the file") == true)
    }

    @Test func hostileNamesArePassedThroughUnchanged() throws {
        let run = try JUnitHarness.run(
            """
            <testsuites><testsuite name="s">
            <testcase classname="Robert'); DROP TABLE tests;--" name="x' OR '1'='1"/>
            <testcase classname="&lt;script&gt;alert(1)&lt;/script&gt;" name="&lt;img src=x onerror=alert(1)&gt;"><failure message="&lt;b&gt;bold&lt;/b&gt; &amp;amp;"/></testcase>
            <testcase classname="Emoji🧪Tests" name="test_👩‍👩‍👧‍👦_and_\u{200B}zero width"/>
            </testsuite></testsuites>
            """)
        #expect(
            run.testIDs == [
                "Robert'); DROP TABLE tests;--/x' OR '1'='1",
                "<script>alert(1)</script>/<img src=x onerror=alert(1)>",
                "Emoji🧪Tests/test_👩‍👩‍👧‍👦_and_\u{200B}zero width",
            ])
        #expect(
            run.starts.map(\.suite) == ["Robert'); DROP TABLE tests;--", "<script>alert(1)</script>", "Emoji🧪Tests"])
        #expect(run.issues.map(\.message) == ["<b>bold</b> &amp;"])
    }

    @Test func hugeFailureMessageIsCut() throws {
        let huge = String(repeating: "x", count: 200_000)
        let run = try JUnitHarness.run(
            "<testsuite name=\"s\"><testcase classname=\"c\" name=\"n\"><failure message=\"\(huge)\"/></testcase></testsuite>"
        )
        let message = try #require(run.issues.first?.message)
        #expect(message.utf8.count <= 64 * 1024 + "…".utf8.count)
        #expect(message.hasSuffix("…"))
    }

    @Test func thousandsOfFailuresInOneTestcaseAreCapped() throws {
        let failures = (1...1_500).map { "<failure message=\"f\($0)\"/>" }.joined()
        let run = try JUnitHarness.run(
            "<testsuite name=\"s\"><testcase classname=\"c\" name=\"n\">\(failures)</testcase></testsuite>")
        #expect(run.issues.count == 1_001)
        #expect(run.issues.first?.message == "f1")
        #expect(run.issues.last?.message == "(500 more failures or errors not kept)")
        #expect(run.outcomes("c/n") == [.failed])
    }

    @Test(.timeLimit(.minutes(1)))
    func deeplyNestedSuitesEndQuickly() throws {
        let depth = 5_000
        let xml =
            "<testsuites>" + String(repeating: "<testsuite name=\"s\">", count: depth)
            + "<testcase classname=\"c\" name=\"n\"/>" + String(repeating: "</testsuite>", count: depth)
            + "</testsuites>"
        // libxml2 may refuse the depth (it limits nesting); either way it ends, and never crashes.
        if let run = try? JUnitHarness.run(xml) {
            #expect(run.testIDs == ["c/n"])
        } else {
            let error = try JUnitHarness.failure(xml)
            #expect(error.problem.contains("malformed XML"))
        }
    }

    /// Runs only the parse, skipping the prolog check.
    static func parseWithoutPrologCheck(_ xml: String) throws -> [LedgerRecord] {
        let context = JUnitHarness.context()
        let document = JUnitDocument(sink: CollectingSink(), context: context, source: "junit")
        let reader = JUnitXMLReader(document: document, sourceName: context.sourceName)
        try reader.read(.data(Data(xml.utf8)))
        return try #require(reader.document.sink as? CollectingSink).records
    }
}
