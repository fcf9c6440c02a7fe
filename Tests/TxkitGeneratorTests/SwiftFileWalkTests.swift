#if Txkit
import Foundation
import Testing
@testable import TxkitGenerator

/// The folder walk that replaced Foundation's directory enumerator lists
/// the files the enumerator listed, under the same paths.
@Suite("the Swift files below a folder")
struct SwiftFileWalkTests {
    /// A temporary tree: nested folders, hidden files and folders, a link to
    /// a file, a link to a folder, a link named like a Swift file, a folder
    /// named like one (a checkout of `GRDB.swift`), a file of another kind.
    private static func makeTree() throws -> String {
        let root = FileManager.default.temporaryDirectory.path + "/txkit-walk-\(UUID().uuidString)"
        let manager = FileManager.default
        for folder in ["Sources/App/Models", "Sources/.hidden", ".build/debug", "Elsewhere", "Vendor/GRDB.swift/GRDB"] {
            try manager.createDirectory(atPath: "\(root)/\(folder)", withIntermediateDirectories: true)
        }
        for file in [
            "Sources/App/A.swift", "Sources/App/Models/B.swift", "Sources/App/.C.swift", "Sources/.hidden/D.swift",
            ".build/debug/E.swift", "Elsewhere/F.swift", "Sources/App/notes.txt", "Sources/App/G.swift.orig", "H.swift",
            "Vendor/GRDB.swift/GRDB/Database.swift",
        ] {
            try "let x = 1\n".write(toFile: "\(root)/\(file)", atomically: false, encoding: .utf8)
        }
        try manager.createSymbolicLink(atPath: "\(root)/Sources/LinkToFolder", withDestinationPath: "../Elsewhere")
        try manager.createSymbolicLink(atPath: "\(root)/Sources/LinkToFile.swift", withDestinationPath: "../H.swift")
        try manager.createSymbolicLink(atPath: "\(root)/Sources/Folder.swift", withDestinationPath: "../Elsewhere")
        return root
    }

    /// What `SourceSet` listed with Foundation's enumerator, but for the
    /// folders named like Swift files, which it listed too (and then could
    /// not read).
    private static func enumeratorFiles(under folder: String) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if (relative as NSString).lastPathComponent.hasPrefix(".") {
                enumerator.skipDescendants()
            } else if relative.hasSuffix(".swift") {
                let path = (folder as NSString).appendingPathComponent(relative)
                let kind = try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
                if kind != .typeDirectory { found.append(path) }
            }
        }
        return found.sorted()
    }

    @Test(arguments: ["", "/", "//", "/Sources", "/Sources/"])
    func listsWhatFoundationsEnumeratorListed(_ suffix: String) throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = root + suffix
        let walked = try #require(SwiftFileWalk.files(under: folder)).sorted()
        #expect(try walked == Self.enumeratorFiles(under: folder))
        #expect(!walked.isEmpty)
    }

    @Test func theFilesOfTheTreeAreThoseExpected() throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let walked = try #require(SwiftFileWalk.files(under: root)).map { String($0.dropFirst(root.count + 1)) }
        #expect(Set(walked) == [
            "Sources/App/A.swift", "Sources/App/Models/B.swift", "Elsewhere/F.swift", "H.swift",
            "Sources/LinkToFile.swift", "Sources/Folder.swift", "Vendor/GRDB.swift/GRDB/Database.swift",
        ])
    }

    /// Found on this repository's own `.build/checkouts`: Foundation's
    /// enumerator listed the folder `GRDB.swift` as a Swift file, and the
    /// run stopped on it ("not a readable UTF-8 file").
    @Test func aFolderNamedLikeASwiftFileIsSearched() throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let sources = try SourceSet(paths: [root + "/Vendor"])
        #expect(sources.files.map(\.path) == [root + "/Vendor/GRDB.swift/GRDB/Database.swift"])
    }

    @Test func aFolderThatCannotBeOpenedIsNil() {
        #expect(SwiftFileWalk.files(under: "/nonexistent-\(UUID().uuidString)") == nil)
    }
}
#endif
