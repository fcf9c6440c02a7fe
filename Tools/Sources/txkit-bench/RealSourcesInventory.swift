#if GeneratorBenchmark
import Foundation
import TxkitGenerator

/// Verbatim sources of a public package (GRDB's, swift-syntax's) for
/// `txkit-bench generator`'s `inventory` on real code: a folder of Swift
/// files and its line count.
struct RealSources {
    /// A short name for the report (`GRDB`, `swift-syntax`).
    let name: String
    /// The folder read, absolute.
    let path: String
    /// Lines of its `.swift` files, hidden folders skipped as `txkit` does.
    let lines: Int

    /// The packages already in the build folder, when they are checked
    /// out (`.build/checkouts` of the root package or of `Tools/`).
    static func checkedOut(in folder: String) -> [RealSources] {
        let candidates = [("GRDB", "GRDB.swift/GRDB"), ("swift-syntax", "swift-syntax/Sources")]
        let builds = [folder + "/.build/checkouts", folder + "/Tools/.build/checkouts", folder + "/../.build/checkouts"]
        return candidates.compactMap { name, relative in
            guard let path = builds.map({ ($0 as NSString).appendingPathComponent(relative) })
                .first(where: { FileManager.default.fileExists(atPath: $0) })
            else { return nil }
            return RealSources(name: name, path: (path as NSString).standardizingPath)
        }
    }

    /// `name=path`, or a path named by its last component.
    static func parse(_ argument: String) -> RealSources {
        let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
        let path = parts.count == 2 ? parts[1] : parts[0]
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return RealSources(name: parts.count == 2 ? parts[0] : (path as NSString).lastPathComponent, path: absolute)
    }

    init(name: String, path: String) {
        self.name = name
        self.path = path
        var lines = 0
        let enumerator = FileManager.default.enumerator(atPath: path)
        while let relative = enumerator?.nextObject() as? String {
            if (relative as NSString).lastPathComponent.hasPrefix(".") {
                enumerator?.skipDescendants()
                continue
            }
            guard relative.hasSuffix(".swift"),
                  let data = FileManager.default.contents(atPath: (path as NSString).appendingPathComponent(relative))
            else { continue }
            lines += data.count { $0 == UInt8(ascii: "\n") }
        }
        self.lines = lines
    }

    /// Reads, parses and indexes the folder (`read_index`), then takes the
    /// inventory (`inventory_scan`), under the corpus' configuration (a
    /// legacy transaction type the package does not declare: every type
    /// is scanned, none is legacy). Returns the seconds of each stage.
    func inventory(root: String, configuration: GeneratorConfiguration) throws -> (read: Double, scan: Double) {
        var start = DispatchTime.now()
        let generator = try Generator(root: root, configuration: configuration, sources: [path])
        let read = seconds(since: start)
        start = DispatchTime.now()
        _ = generator.inventory()
        return (read, seconds(since: start))
    }

    private func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }
}
#endif
