import LedgerStore
import PostgresNIO

/// One connection, used by one thread at a time, for the statements of one operation.
final class PostgresSession {
    let connection: PostgresConnection
    /// Where the database is, for errors.
    let location: String
    /// Work sent without waiting for it (``send(_:)``): every later statement waits for it first.
    private var sent: Task<Void, any Error>?
    /// The `COPY` that ``sent`` is, while it takes more rows.
    private var feed: CopyFeed?

    init(connection: PostgresConnection, location: String) {
        self.connection = connection
        self.location = location
    }

    deinit {
        // Cancelled first, so that a `COPY` still taking rows fails instead of storing them.
        sent?.cancel()
        feed?.close()
    }

    /// The rows `query` returns, once what was sent before is done.
    func rows(_ query: PostgresQuery) throws -> [PostgresRow] {
        try settle()
        let connection = self.connection
        return try mapped {
            try waitFor(on: connection.eventLoop) {
                try await connection.query(query, logger: PostgresLedger.logger).collect()
            }
        }
    }

    /// Starts `work` on the connection and returns without waiting for it, once what was sent
    /// before is done: the caller goes on (reading its input) while the database works.
    func send(_ work: @escaping @Sendable (PostgresConnection) async throws -> Void) throws {
        try settle()
        let connection = self.connection
        sent = startTask(on: connection.eventLoop) { try await work(connection) }
    }

    /// Sends a statement whose answer is not needed without waiting for it.
    func send(_ query: PostgresQuery) throws {
        try send { connection in _ = try await connection.query(query, logger: PostgresLedger.logger).collect() }
    }

    /// Sends rows to `table` without waiting for them: into the `COPY` under way when it is the
    /// last thing sent and has the same columns, else into a new one.
    func copy(_ rows: ByteBuffer, into table: String, columns: [String]) throws {
        if let feed, feed.table == table, feed.columns == columns, feed.add(rows) { return }
        try settle()
        let feed = CopyFeed(table: table, columns: columns)
        _ = feed.add(rows)
        self.feed = feed
        let connection = self.connection
        sent = startTask(on: connection.eventLoop) {
            defer { feed.close() }
            try await connection.copyFrom(
                table: table, columns: columns, format: .text(.init()), logger: PostgresLedger.logger
            ) { writer in
                while let rows = await feed.take() { try await writer.write(rows) }
                try Task.checkCancellation()
            }
        }
    }

    /// Waits for what was sent; throws its error.
    func settle() throws {
        feed?.end()
        feed = nil
        guard let sent else { return }
        self.sent = nil
        try mapped { try waitFor(on: connection.eventLoop) { try await sent.value } }
    }

    /// The server's errors as ``StoreError``s, naming where the database is.
    private func mapped<Value>(_ body: () throws -> Value) throws -> Value {
        do {
            return try body()
        } catch let error as PSQLError {
            throw PostgresLedger.storeError(error, location: location)
        }
    }

    /// Runs `query`, discarding any rows.
    func run(_ query: PostgresQuery) throws {
        _ = try rows(query)
    }

    /// The first column of the first row, when there is one.
    func value<Value: PostgresDecodable>(_ query: PostgresQuery, as type: Value.Type = Value.self) throws -> Value? {
        try rows(query).first.map { try $0.decode(Value.self) }
    }
}
