import Foundation
import LedgerCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// One streaming pass of `XMLParser` over a JUnit document, with external entities never
/// resolved: as its delegate, checks the root element, tells the elements apart, collects the
/// text of those the ``JUnitDocument`` asks for, hands both to it, and stops at the first
/// problem.
///
/// libxml2 (behind `XMLParser` on Linux) reports an error and then carries on parsing, and a
/// truncated document can even make `parse()` return `true`; so the first reported error is
/// kept here and parsing is aborted at once.
final class JUnitXMLReader: NSObject, XMLParserDelegate {
    /// The document read so far; its sink holds every event sent.
    private(set) var document: JUnitDocument
    private let sourceName: String
    /// Per open element, outermost first: the text being collected, `nil` when it is ignored.
    private var buffers: [JUnitTextBuffer?] = []
    /// Whether the innermost open element's text is collected, so that the text between
    /// elements, nearly all of it indentation, is dropped without touching `buffers`.
    private var collecting = false
    /// The first problem: a ``LedgerInputError`` or an error the sink threw.
    private var failure: (any Error)?
    /// Whether the root element was seen.
    private var sawRoot = false

    init(document: JUnitDocument, sourceName: String) {
        self.document = document
        self.sourceName = sourceName
    }

    /// Reads `input` from start to end, streaming, then ends the document.
    /// - Throws: ``LedgerInputError`` for input that is not well-formed JUnit XML; whatever
    ///   the sink throws.
    func read(_ input: LineReader.Input) throws {
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
        parser.delegate = self
        _ = parser.parse()
        if let failure { throw failure }
        if let error = parser.parserError {
            throw JUnitInputErrors.unreadable(sourceName, error.localizedDescription)
        }
        if !sawRoot { throw JUnitInputErrors.empty(sourceName) }
        try document.end()
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        let element = JUnitElement(rawValue: elementName)
        if !sawRoot {
            sawRoot = true
            guard element == .testsuites || element == .testsuite else {
                let line = parser.lineNumber
                return stop(parser, JUnitInputErrors.notJUnit(sourceName, root: elementName, line: line))
            }
        }
        do {
            let keep = try document.didStart(element, attributes: attributeDict)
            buffers.append(keep.map(JUnitTextBuffer.init(keep:)))
            collecting = keep != nil
        } catch {
            stop(parser, error)
        }
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?
    ) {
        guard failure == nil, let buffer = buffers.popLast() else { return }
        collecting = buffers.last.map { $0 != nil } ?? false
        do {
            try document.didEnd(text: buffer?.result ?? "")
        } catch {
            stop(parser, error)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard collecting, failure == nil else { return }
        buffers[buffers.count - 1]?.append(string)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard collecting, failure == nil else { return }
        buffers[buffers.count - 1]?.append(String(decoding: CDATABlock, as: UTF8.self))
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard failure == nil else { return }
        let code = (parseError as NSError).code
        // libxml2 reports input with no element at all (blank, or a lone XML declaration)
        // as "document end" (5): say plainly that there is nothing in it.
        guard sawRoot || code != 5 else { return stop(parser, JUnitInputErrors.empty(sourceName)) }
        stop(
            parser,
            JUnitInputErrors.malformed(
                sourceName, code: code, line: parser.lineNumber, column: parser.columnNumber))
    }

    private func stop(_ parser: XMLParser, _ error: any Error) {
        failure = error
        parser.abortParsing()
    }
}
