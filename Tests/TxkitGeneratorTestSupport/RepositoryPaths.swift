#if Txkit
import Foundation

/// Where the generator's tests and its fuzzer find what they read: the
/// repository, the fixtures in Tests/Fixtures, and the worked example in
/// Tools/.
package enum RepositoryPaths {
    /// The repository's root folder (this file is
    /// Tests/TxkitGeneratorTestSupport/RepositoryPaths.swift).
    package static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// Tests/Fixtures: the generator fixture, the apply and convert
    /// fixtures, the plugin consumer and the real-world corpus.
    package static let fixtures = root + "/Tests/Fixtures"

    /// Tools/: the worked example and its txkit.json.
    package static let example = root + "/Tools"
}
#endif
