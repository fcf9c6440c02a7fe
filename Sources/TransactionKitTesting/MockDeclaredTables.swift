import TransactionKit

/// The tables a mock method's successful calls read and change (see
/// ``MockMethodCore/declaresRead(table:)`` and
/// ``MockMethodCore/declaresChange(table:)``), each once, in the order
/// they were declared.
struct MockDeclaredTables {
    private(set) var read: [String] = []
    private(set) var changed: [String] = []

    mutating func addRead(_ table: String) {
        if !read.contains(table) { read.append(table) }
    }

    mutating func addChanged(_ table: String) {
        if !changed.contains(table) { changed.append(table) }
    }

    /// Declares the tables on the transaction of a call whose stub
    /// answered: the reads on any transaction, the changes on a write; a
    /// change without a write transaction fails the test at `site`.
    func declare(on tx: DBReadTransaction?, at site: MockCallSite) {
        for table in read {
            tx?.declareRead(table: table, file: site.fileID, line: site.line)
        }
        guard !changed.isEmpty else { return }
        if let write = tx as? DBWriteTransaction {
            for table in changed {
                write.declareChange(table: table, file: site.fileID, line: site.line)
            }
        } else {
            let received = tx == nil ? "no transaction" : "a read transaction"
            let tables = changed.map { "\"\($0)\"" }.joined(separator: ", ")
            site.recordFailure(
                "\(site.member) declares that it changes \(tables) (declaresChange(table:)), but this call "
                    + "received \(received), which cannot change a table: nothing was declared. Declare the change "
                    + "on the mock's method that writes.")
        }
    }
}
