import TransactionKit

/// What callers use of ``PriceFinder``, taking TransactionKit transactions (Good Way).
///
/// Production passes `PriceFinder`; unit tests pass `PriceFindingMock`
/// (`txkit mock --protocol PriceFinding`). Written by `txkit convert --legacy PriceFinder`;
/// maintained by hand from now on.
protocol PriceFinding: Sendable {
    /// Sets the price of an item.
    ///
    /// Write: its body executes INSERT (rule: body)
    func setPrice(_ cents: Int, of item: String, _ tx: DBWriteTransaction) throws

    /// The sum of the prices of some items; items without a price count 0.
    ///
    /// Read: its body only calls members that read (rule: body)
    func total(of items: [String], _ tx: DBReadTransaction) throws -> Int

    /// How many items have a price.
    ///
    /// Read: its body only reads (fetchOne(…)) (rule: body)
    func count(_ tx: DBReadTransaction) throws -> Int
}

/// The production ``PriceFinding``.
extension PriceFinder: PriceFinding {
    /// Forwards to the static `PriceFinder.count(_:)`.
    func count(_ tx: DBReadTransaction) throws -> Int {
        try Self.count(tx)
    }
}
