/// Receives the elements of a JUnit XML document from ``JUnitXMLReader`` as they open and close.
///
/// A class protocol because the reader is an `NSObject` that cannot be generic over the sink;
/// the handler is the part that knows what the elements mean.
protocol JUnitElementHandler: AnyObject {
    /// An element opened: `element` is what it is, or `nil` for one the import ignores.
    /// - Returns: how much of the element's text to collect, or `nil` to ignore it.
    /// - Throws: whatever stops the import (for example an error from the event sink).
    func didStart(_ element: JUnitElement?, attributes: [String: String]) throws
        -> JUnitTextBuffer.Keep?

    /// The innermost open element closed; `text` is what was collected of its text (empty
    /// when ignored).
    /// - Throws: whatever stops the import (for example an error from the event sink).
    func didEnd(text: String) throws
}
