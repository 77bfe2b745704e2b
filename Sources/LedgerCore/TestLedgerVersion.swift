/// TestLedger's version: what `testledger --version` prints and the server's `/healthz` names.
///
/// `CHANGELOG.md` has a section for each version, naming every change to a JSON contract.
public enum TestLedgerVersion {
    /// The version of this build, as `MAJOR.MINOR.PATCH`.
    public static let current = "0.1.0"
}
