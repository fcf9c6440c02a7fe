import Foundation

/// A new directory under the system's temporary directory (or under
/// `root`), removed with everything in it when the last reference goes.
package final class TemporaryDirectory: Sendable {
    package let url: URL

    /// Creates the directory.
    ///
    /// - Parameters:
    ///   - prefix: The start of its name, followed by a UUID.
    ///   - root: The directory to create it in; the system's temporary
    ///     directory by default.
    package init(prefix: String = "TransactionKitTests", in root: URL = FileManager.default.temporaryDirectory) throws {
        url = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The directory's path.
    package var path: String { url.path }

    /// The path of `name` in the directory.
    package func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
