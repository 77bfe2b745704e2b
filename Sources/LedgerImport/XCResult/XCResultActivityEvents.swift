import Foundation
import LedgerCore

/// Xcode's activities (`XCTContext.runActivity`, `XCUIApplication` steps, Swift Testing's) as
/// `activity.start` / `activity.end` events, with their attachments.
///
/// Xcode gives each activity a start and no end: an activity ends where the next one at its level
/// starts, else where its parent ends (the attempt's end at the top). One associated with a
/// failure ends `failed`. An activity titled `testledger.layer:ui` (or `allure.label.layer:ui`, as
/// Allure reads labels from titles) declares the test's layer and is not kept as a step.
enum XCResultActivityEvents {
    static let layerPrefixes = ["testledger.layer:", "allure.label.layer:"]

    /// The layer an activity title declares in any of `runs`.
    static func declaredLayer(_ runs: [XCResultActivities.Run]) -> Layer? {
        var pending = runs.flatMap { $0.activities ?? [] }
        while let node = pending.popLast() {
            if let value = labelValue(node.title) { return Layer(rawValue: value.lowercased()) }
            pending += node.childActivities ?? []
        }
        return nil
    }

    private static func labelValue(_ title: String) -> String? {
        for prefix in layerPrefixes where title.lowercased().hasPrefix(prefix) {
            return title.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// The events of one attempt's activity tree.
    ///
    /// - Parameters:
    ///   - nodes: the top-level activities.
    ///   - test: the test's id.
    ///   - attempt: the attempt's number.
    ///   - start: the attempt's start, for an activity that has none.
    ///   - end: the attempt's end, where its last top-level activity ends.
    ///   - nextID: numbers the activities, uniquely in the run.
    ///   - attachments: exported attachments, by name and by UUID.
    /// - Returns: for each activity, depth first in the order they began: its start, its children's
    ///   events, its attachments and its end.
    static func events(
        _ nodes: [XCResultActivities.Node], test: String, attempt: Int, start: Double, end: Double,
        nextID: inout Int, attachments: [String: XCResultBundleDetails.ExportedAttachment]
    ) -> [LedgerEvent] {
        var events: [LedgerEvent] = []
        func add(_ nodes: [XCResultActivities.Node], parent: String?, from: Double, to: Double) {
            let kept = nodes.filter { labelValue($0.title) == nil }
            var previous = from
            for (index, node) in kept.enumerated() {
                let begin = node.startTime ?? previous
                let following = kept.dropFirst(index + 1).lazy.compactMap(\.startTime).first
                let finish = max(begin, following ?? to)
                previous = begin
                nextID += 1
                let id = "xcresult-\(nextID)"
                events.append(
                    .activityStart(
                        .init(at: begin, test: test, attempt: attempt, activity: id, parent: parent, name: node.title)))
                add(node.childActivities ?? [], parent: id, from: begin, to: finish)
                for attachment in node.attachments ?? [] {
                    let exported =
                        attachments[attachment.name] ?? attachment.uuid.flatMap { attachments[$0] }
                    events.append(
                        .attachment(
                            .init(
                                at: attachment.timestamp ?? begin, test: test, attempt: attempt,
                                name: displayName(attachment.name), mediaType: mediaType(attachment.name),
                                size: exported?.size, activity: id, path: exported?.path)))
                }
                events.append(
                    .activityEnd(
                        .init(
                            at: finish, activity: id, outcome: node.isAssociatedWithFailure == true ? .failed : .passed)
                    ))
            }
        }
        add(nodes, parent: nil, from: start, to: end)
        return events
    }

    /// `Launch Screen` from Xcode's `Launch Screen_0_53E1C67A-8428-403B-A173-57C38BE9DA8B.png`;
    /// a name not in that shape as it is.
    static func displayName(_ name: String) -> String {
        let stem = name.lastIndex(of: ".").map { name[..<$0] } ?? Substring(name)
        guard stem.count > 38 else { return name }
        let uuid = stem.suffix(36)
        guard UUID(uuidString: String(uuid)) != nil, stem.dropLast(36).last == "_" else { return name }
        let rest = stem.dropLast(37)
        guard let underscore = rest.lastIndex(of: "_"), rest[rest.index(after: underscore)...].allSatisfy(\.isNumber),
            underscore > rest.startIndex
        else { return name }
        return String(rest[..<underscore])
    }

    /// The media type its extension says, when it is a common one.
    static func mediaType(_ name: String) -> String? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        let types = [
            "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "heic": "image/heic", "gif": "image/gif",
            "txt": "text/plain", "log": "text/plain", "json": "application/json", "xml": "application/xml",
            "html": "text/html", "mp4": "video/mp4", "mov": "video/quicktime", "pdf": "application/pdf",
            "zip": "application/zip", "plist": "application/x-plist",
        ]
        return types[name[name.index(after: dot)...].lowercased()]
    }
}
