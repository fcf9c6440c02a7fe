extension ConcurrentTorture {
    /// Prints one line per durability setting, the failures, and the total
    /// line; returns whether the run was clean.
    func summarize(_ tallies: [Tally], failures: [String]) -> Bool {
        for (setting, tally) in zip(settings, tallies) {
            print(
                "durability \(setting.rawValue): \(tally.rounds) rounds, \(tally.acknowledged.count) acknowledged, "
                    + "\(tally.lost.count) lost, \(tally.partial.count) partial, "
                    + "\(tally.readerChecks) reader checks, \(tally.violations) violations")
        }
        for failure in failures.prefix(20) {
            print("error: \(failure)")
        }
        if failures.count > 20 {
            print("error: … and \(failures.count - 20) more")
        }
        let total = { (count: (Tally) -> Int) in tallies.map(count).reduce(0, +) }
        let (lost, partial) = (total { $0.lost.count }, total { $0.partial.count })
        let (writerKills, readerKills) = (total(\.writerKills), total(\.readerKills))
        let integrityFailures = total(\.integrityFailures)
        let clean = lost == 0 && partial == 0 && failures.isEmpty && integrityFailures == 0
        if !clean {
            print("torture: the databases are kept in \(workDirectory) for inspection (seed \(seed))")
        }
        let processes = "\(writers) writers" + (reader ? " + reader" : "")
        print(
            "torture: \(total(\.rounds)) rounds, \(processes), "
                + "\(writerKills + readerKills) kills (\(writerKills) writer, \(readerKills) reader), "
                + "\(total { $0.acknowledged.count }) acknowledged, \(lost) lost, \(partial) partial, "
                + "\(total(\.readerChecks)) reader checks, \(total(\.violations)) violations, "
                + "integrity " + (integrityFailures == 0 ? "ok" : "FAILED in \(integrityFailures) rounds"))
        return clean
    }
}
