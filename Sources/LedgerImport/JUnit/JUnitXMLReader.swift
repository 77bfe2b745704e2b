import Foundation
import LedgerCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The `XMLParser` delegate: checks the root element, tells the elements apart, collects the
/// text of those the handler asks for, hands both to a ``JUnitElementHandler``, and stops at
/// the first problem.
///
/// libxml2 (behind `XMLParser` on Linux) reports an error and then carries on parsing, and a
/// truncated document can even make `parse()` return `true`; so the first reported error is
/// kept here and parsing is aborted at once.
final class JUnitXMLReader: NSObject, XMLParserDelegate {
    private let handler: any JUnitElementHandler
    private let sourceName: String
    /// Per open element, outermost first: the text being collected, `nil` when it is ignored.
    private var buffers: [JUnitTextBuffer?] = []
    /// Whether the innermost open element's text is collected, so that the text between
    /// elements, nearly all of it indentation, is dropped without touching `buffers`.
    private var collecting = false
    /// The first problem: a ``LedgerInputError`` or an error the handler threw.
    private(set) var failure: (any Error)?
    /// Whether the root element was seen.
    private(set) var sawRoot = false

    init(handler: any JUnitElementHandler, sourceName: String) {
        self.handler = handler
        self.sourceName = sourceName
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
            let keep = try handler.didStart(element, attributes: attributeDict)
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
            try handler.didEnd(text: buffer?.result ?? "")
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
