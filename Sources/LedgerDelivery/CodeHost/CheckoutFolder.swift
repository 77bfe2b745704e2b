import Foundation

/// The checkout a command runs in, as recorded paths from another machine meet it.
package enum CheckoutFolder {
    /// The names at the top of the checkout at `root` that a path from another machine may enter
    /// it by: hidden ones left out but for `.github`.
    package static func topLevel(of root: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return names.filter { !$0.hasPrefix(".") || $0 == ".github" }.sorted()
    }
}
