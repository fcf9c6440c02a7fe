#if Txkit
import Foundation
import Testing
@testable import TxkitGenerator

/// The index of names to files that the rewriter's searches go through:
/// a file is listed for a name when one of its tokens is spelled so, in
/// the sources' order.
@Suite("files mentioning a name")
struct SourceSetMentionTests {
    let sources: SourceSet

    init() throws {
        sources = try SourceSet(sources: [
            (path: "/a/Caller.swift", text: "let manager = TaskManager(store: TaskStore())\n"),
            (path: "/a/Comment.swift", text: "// TaskManager is only named here\nlet text = \"TaskManager\"\n"),
            (path: "/a/Manager.swift", text: "final class TaskManager { convenience init() { self.init() } }\n"),
            (path: "/a/Nested.swift", text: "enum Outer { struct Inner {} }\nlet inner = Outer.Inner()\n"),
        ])
    }

    @Test func listsTheFilesWithATokenOfThatNameInOrder() {
        #expect(sources.filesMentioning("TaskManager").map(\.path) == ["/a/Caller.swift", "/a/Manager.swift"])
        #expect(sources.filesMentioning("TaskStore").map(\.path) == ["/a/Caller.swift"])
        #expect(sources.filesMentioning("Missing").isEmpty)
    }

    @Test func aQualifiedNameIsLookedUpByItsLastComponent() {
        #expect(sources.filesMentioning("Outer.Inner").map(\.path) == ["/a/Nested.swift"])
    }

    @Test func addsTheGivenPathsInTheSourcesOrder() {
        let files = sources.filesMentioning("TaskStore", or: ["/a/Manager.swift", "/a/Unknown.swift"])
        #expect(files.map(\.path) == ["/a/Caller.swift", "/a/Manager.swift"])
    }

    @Test func keywordsAreIndexedToo() {
        #expect(sources.filesMentioning("self").map(\.path) == ["/a/Manager.swift"])
    }
}
#endif
