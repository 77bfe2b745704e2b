import Foundation
import LedgerCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The `XMLParser` delegate: checks the root element, keeps the path of open elements and
/// their text, hands both to a ``JUnitElementHandler``, and stops at the first problem.
///
/// libxml2 (behind `XMLParser` on Linux) reports an error and then carries on parsing, and a
/// truncated document can even make `parse()` return `true`; so the first reported error is
/// kept here and parsing is aborted at once.
final class JUnitXMLReader: NSObject, XMLParserDelegate {
    private let handler: any JUnitElementHandler
    private let sourceName: String
    private var path: [String] = []
    private var buffers: [JUnitTextBuffer?] = []
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
        if !sawRoot {
            sawRoot = true
            guard elementName == "testsuites" || elementName == "testsuite" else {
                let line = parser.lineNumber
                return stop(parser, JUnitInputErrors.notJUnit(sourceName, root: elementName, line: line))
            }
        }
        do {
            let keep = try handler.didStart(elementName, attributes: attributeDict, path: path)
            path.append(elementName)
            buffers.append(keep.map(JUnitTextBuffer.init(keep:)))
        } catch {
            stop(parser, error)
        }
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?
    ) {
        guard failure == nil, !path.isEmpty else { return }
        path.removeLast()
        let text = buffers.removeLast()?.result ?? ""
        do {
            try handler.didEnd(elementName, text: text, path: path)
        } catch {
            stop(parser, error)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard failure == nil, !buffers.isEmpty else { return }
        buffers[buffers.count - 1]?.append(string)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard failure == nil, !buffers.isEmpty, buffers[buffers.count - 1] != nil else { return }
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
