import Foundation
import LedgerCore
import LedgerStore

extension ProjectConfiguration {
    /// The default branch fixes land on, `broken-on-default` watches and `report trends` reads:
    /// `fixLanding.branch`, else the checkout's `origin/HEAD`, else `main`.
    /// - Parameter directory: a folder of the checkout, when there is one.
    /// - Returns: the branch's name.
    package func defaultBranch(in directory: String) -> String {
        FixLanding(branch: fixLanding.branch, checkout: GitInfo.topLevel(in: directory)).defaultBranch
    }
}
