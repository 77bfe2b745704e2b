import Foundation

/// Writes one line to standard error: warnings and errors that are not the command's output.
package func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
