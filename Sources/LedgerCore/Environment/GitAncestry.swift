import Foundation

/// What git says of a checkout's history: whether a fix reached a revision, and which branch is
/// the default one.
public enum GitAncestry {
    /// Whether `ancestor` is `revision` or one of its ancestors in `checkout`'s history: `git
    /// merge-base --is-ancestor`. `false` where git cannot tell (a revision it does not have).
    public static func descends(_ revision: String, from ancestor: String, in checkout: String) -> Bool {
        guard let output = try? Spawn.run("git", ["-C", checkout, "merge-base", "--is-ancestor", ancestor, revision])
        else { return false }
        return output.status == 0
    }

    /// The default branch of `checkout`'s `origin` (`refs/remotes/origin/HEAD`, as a clone sets
    /// it); `nil` where it has none.
    public static func defaultBranch(in checkout: String) -> String? {
        let arguments = ["-C", checkout, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"]
        guard let output = try? Spawn.run("git", arguments), output.status == 0 else { return nil }
        let name = output.text.trimmingCharacters(in: .whitespacesAndNewlines)
        return name.hasPrefix("origin/") ? String(name.dropFirst("origin/".count)) : nil
    }
}
