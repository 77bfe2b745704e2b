extension LedgerDatabase: ResultStore {
    public var locationDescription: String { writer.path }
}

/// Tokens in `LedgerDatabase+Tokens.swift`, sessions in `LedgerDatabase+Sessions.swift`.
extension LedgerDatabase: CredentialStore {}
