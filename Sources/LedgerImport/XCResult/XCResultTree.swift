/// Walks the test tree of an xcresult document down to its test cases.
///
/// Bundles name the module; `Test Suite` nodes, nested as Swift Testing nests them, give the
/// suite path when a test case has no identifier; plans, devices and configurations are passed
/// through. What sits below a test case belongs to it.
enum XCResultTree {
    /// Calls `visit` with every test case under `nodes`, in document order, and where it is.
    static func walk(
        _ nodes: [XCResultNode], in place: XCResultTest.Place = XCResultTest.Place(),
        visit: (XCResultNode, XCResultTest.Place) throws -> Void
    ) rethrows {
        for node in nodes {
            var inner = place
            switch node.nodeType {
            case "Test Case":
                try visit(node, place)
                continue
            case "Unit test bundle", "UI test bundle":
                inner = XCResultTest.Place(bundle: node.name, isUIBundle: node.nodeType == "UI test bundle")
            case "Test Suite":
                inner.suites.append(node.name ?? "")
            case "Failure Message", "Source Code Reference", "Attachment", "Expression", "Test Value",
                "Runtime Warning", "Repetition", "Arguments", "Test Case Run":
                continue
            default:
                break
            }
            try walk(node.children ?? [], in: inner, visit: visit)
        }
    }

}
