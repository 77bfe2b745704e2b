extension LedgerDatabase: ResultStore {
    public var locationDescription: String { writer.path }
}
