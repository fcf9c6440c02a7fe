#if Txkit
import Foundation

/// Finds the `.swift` files below a folder with the C library's
/// `opendir`/`readdir`, which name each entry's kind: Foundation's
/// directory enumerator made a path string and asked for its last component
/// once per entry, 1 to 2 % of a `txkit-bench generator` run's samples
/// (Benchmarks/README.md, "Where a generator run spends its time").
enum SwiftFileWalk {
    /// The `.swift` files at any depth below `folder`, in no particular
    /// order, as Foundation's `FileManager.enumerator(atPath:)` listed them:
    /// an entry whose name starts with `.` is skipped, with all it holds
    /// (`.build`, `.git`); a symbolic link is listed under its own name and
    /// never followed into a folder. One difference: a folder named like a
    /// Swift file (a checkout of `GRDB.swift`) is searched, where the
    /// enumerator listed it as a file that could then not be read. Each
    /// path is `folder` joined with the file's path below it, as
    /// `NSString.appendingPathComponent` joins them. A folder below
    /// `folder` that cannot be opened is skipped.
    ///
    /// - Returns: `nil` when `folder` itself cannot be read.
    static func files(under folder: String) -> [String]? {
        // The folder's part of every path, joined once.
        let prefix = String((folder as NSString).appendingPathComponent("_").dropLast())
        var found: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            guard let directory = opendir(relative.isEmpty ? folder : prefix + relative) else {
                if relative.isEmpty { return nil }
                continue
            }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                    String(cString: bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
                }
                if name.hasPrefix(".") { continue }
                let path = relative.isEmpty ? name : relative + "/" + name
                if isFolder(entry.pointee.d_type, at: prefix + path) {
                    pending.append(path)
                } else if name.hasSuffix(".swift") {
                    found.append(prefix + path)
                }
            }
        }
        return found
    }

    /// Whether an entry of kind `type` (`d_type`) is a folder, not a link
    /// to one; asks `lstat` when the file system does not say.
    private static func isFolder(_ type: UInt8, at path: String) -> Bool {
        if type != UInt8(DT_UNKNOWN) { return type == UInt8(DT_DIR) }
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}
#endif
