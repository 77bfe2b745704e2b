import ArgumentParser

/// `--owner`: only one owner's tests.
struct OwnerOptions: ParsableArguments {
    @Option(help: "Only the tests of this owner (@org/team, @user or an email), by CODEOWNERS or .testledger.yml.")
    var owner: String?
}
