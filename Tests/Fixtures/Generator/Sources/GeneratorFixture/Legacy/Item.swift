/// A row of the fixture's `item` table.
public struct Item: Sendable, Equatable, Codable {
    public var id: Int64
    public var name: String

    public init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}

/// The typed error of ``ItemStore/validate(_:)``.
public enum StoreError: Error, Equatable, Sendable {
    case emptyName
}
