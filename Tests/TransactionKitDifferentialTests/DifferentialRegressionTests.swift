import Testing

/// Programs the differential run printed (shrunk), kept as regular tests:
/// `MockDB` and `SQLiteDB` leave the same trace on each.
@Suite("DB differential regressions")
struct DifferentialRegressionTests {
    @Test func anEmptyProgramLeavesTheSameTrace() throws {
        try DifferentialCheck.expectSameTraces(Program(steps: []))
    }

    /// Printed by the run against a bug planted in `MockDB` (a key-value
    /// removal applied at once, so not rolled back), then pasted as is.
    @Test func mismatchSeed74786b6974646966Program10() throws {
        try DifferentialCheck.expectSameTraces(Program(steps: [
            .write([.set("prefs", "", .int(0))], .returns(0)),
            .writeOrRollBack([.remove("prefs", "")], commit: false),
        ]))
    }

    /// An observer naming "message" and "MESSAGE" hears both spellings
    /// (CommitObservers reports every spelling, whatever a `Set`'s order).
    @Test func mismatchSeed74786b6974646966Program48() throws {
        try DifferentialCheck.expectSameTraces(Program(steps: [
            .observe(2, tables: ["message", "MESSAGE"], collections: ["kv", "prefs"]),
            .write([.insertRow("message")], .returns(0)),
        ]))
    }
}
