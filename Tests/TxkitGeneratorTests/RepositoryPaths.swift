#if Txkit
import Foundation

/// Where the generator's tests find what they read: the repository, the
/// fixtures beside these tests, and the worked example in Tools/.
enum RepositoryPaths {
    /// The repository's root folder (this file is Tests/TxkitGeneratorTests/RepositoryPaths.swift).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// Tests/Fixtures: the generator fixture, the apply and convert
    /// fixtures, the plugin consumer and the real-world corpus.
    static let fixtures = root + "/Tests/Fixtures"

    /// Tools/: the worked example and its txkit.json.
    static let example = root + "/Tools"
}
#endif
