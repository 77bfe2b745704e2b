/// A member of a JSON object that a reader knows by name.
protocol JSONField: CaseIterable {
    /// The member's key.
    var name: String { get }
    /// Where a ``JSONMemberTable`` keeps the member: from 0, distinct, below 64.
    var slot: Int { get }
}

extension JSONField where Self: RawRepresentable, RawValue == Int {
    var slot: Int { rawValue }
}
