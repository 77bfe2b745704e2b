/// A way of calling `record` that cannot work, found once the command's options meet the
/// runner and the ledger (a `--filter` beside `--shard`): the command says it as a usage error.
package struct RecordUsageError: Error, CustomStringConvertible, Equatable {
    package let description: String

    package init(_ description: String) { self.description = description }
}
