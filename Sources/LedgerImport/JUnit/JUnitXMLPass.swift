import Foundation
import LedgerCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// One streaming pass of `XMLParser` over the input, feeding a ``JUnitElementHandler``.
enum JUnitXMLPass {
    /// How many bytes are read ahead to check the prolog; JUnit reports' prologs are tiny.
    static let prologLimit = 64 * 1024

    /// Checks what precedes the root element before `XMLParser` sees anything: refuses input
    /// that is not JUnit and document type declarations that define entities or load a DTD.
    /// - Throws: ``LedgerInputError`` naming the problem.
    static func checkProlog(of input: LineReader.Input, sourceName: String) throws {
        let prefix = try Self.prefix(of: input, sourceName: sourceName)
        let prolog = JUnitProlog(scanning: prefix)
        if prolog.hasRiskyDoctype {
            throw JUnitInputErrors.riskyDoctype(sourceName, line: prolog.doctypeLine)
        }
        if let root = prolog.rootElement, !prolog.opensJUnit {
            throw JUnitInputErrors.notJUnit(sourceName, root: root, line: prolog.rootLine)
        }
        if prolog.rootElement == nil, prefix.count >= prologLimit {
            throw JUnitInputErrors.longProlog(sourceName, limit: prologLimit)
        }
    }

    /// Parses `input` from start to end, streaming, with external entities never resolved.
    /// - Throws: ``LedgerInputError`` for input that is not well-formed JUnit XML; whatever
    ///   `handler` throws.
    static func run(
        _ input: LineReader.Input, sourceName: String, handler: any JUnitElementHandler
    ) throws {
        let stream: InputStream?
        switch input {
        case .data(let data): stream = InputStream(data: data)
        case .file(let url): stream = InputStream(url: url)
        }
        guard let stream else {
            throw JUnitInputErrors.unreadable(sourceName, "cannot open a stream on it")
        }
        let parser = XMLParser(stream: stream)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        let reader = JUnitXMLReader(handler: handler, sourceName: sourceName)
        parser.delegate = reader
        _ = parser.parse()
        if let failure = reader.failure { throw failure }
        if let error = parser.parserError {
            throw JUnitInputErrors.unreadable(sourceName, error.localizedDescription)
        }
        if !reader.sawRoot { throw JUnitInputErrors.empty(sourceName) }
    }

    /// A guess at how many testcases `input` holds, for sizing tables up front: one per 64
    /// bytes (a bare `<testcase classname="A" name="b" time="0.1"/>` line is about that),
    /// at most 32,768 so that a huge report of few tests costs little; 0 when the size is
    /// unknown.
    static func likelyTestcases(in input: LineReader.Input) -> Int {
        let bytes: Int
        switch input {
        case .data(let data):
            bytes = data.count
        case .file(let url):
            bytes = (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        }
        return min(bytes / 64, 32_768)
    }

    private static func prefix(of input: LineReader.Input, sourceName: String) throws -> Data {
        switch input {
        case .data(let data):
            return data.prefix(prologLimit)
        case .file(let url):
            do {
                let handle = try FileHandle(forReadingFrom: url)
                defer { try? handle.close() }
                return try handle.read(upToCount: prologLimit) ?? Data()
            } catch {
                throw JUnitInputErrors.unreadable(sourceName, error.localizedDescription)
            }
        }
    }
}
