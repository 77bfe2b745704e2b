import ArgumentParser
import Foundation
import LedgerServer
import LedgerStore

extension TestLedgerCommand {
    /// `testledger token create|list|revoke`: access tokens for `testledger serve`.
    struct Token: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "token", abstract: "Make, list and revoke the server's access tokens.",
            subcommands: [Create.self, List.self, Revoke.self])

        struct Create: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "create",
                abstract: "Make a token and print it, alone, on standard output: it is shown only once.")

            @Option(help: "The project the token sends to or reads.")
            var project: String
            @Option(help: "write (send results), read (see reports) or manage (change the quarantine).")
            var scope: StoredToken.Scope

            @OptionGroup var store: StoreOptions

            func run() throws {
                print(try Tokens.create(project: project, scope: scope, in: try store.open()))
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list", abstract: "List tokens: id, prefix, project, scope, state.")

            @OptionGroup var store: StoreOptions

            func run() throws {
                for token in try store.openForReading().tokens() {
                    let state = token.revokedAt.map { "revoked \($0)" } ?? "live"
                    print(
                        "\(token.id)\t\(token.prefix)…\t\(token.project)\t\(token.scope.rawValue)\t\(token.createdAt)\t\(state)"
                    )
                }
            }
        }

        struct Revoke: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "revoke", abstract: "Revoke a token, named by its id or prefix.")

            @Argument(help: "The token's id or prefix, as `token list` shows them.")
            var token: String

            @OptionGroup var store: StoreOptions

            func run() throws {
                guard try store.open().revokeToken(token) else {
                    throw ValidationError("no live token has the id or prefix \(token); see `testledger token list`")
                }
                print("revoked \(token)")
            }
        }
    }
}

extension StoredToken.Scope: ExpressibleByArgument {}
