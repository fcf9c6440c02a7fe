import Foundation

/// Turns measured entries into the readable table and the `--json` file.
///
/// JSON shape (the contract other tools read, with extra keys they may ignore):
///
/// ```json
/// {"results": [{"name": "empty_read_tx", "unit": "ns/op",
///               "values": {"sqlite_c": 812.5, "grdb": 2950.1, ...},
///               "min": {...}, "max": {...}, "samples": 21,
///               "ratios": {"sqlitedb/grdb": {"median": 1.04, "p25": 1.02, "p75": 1.06, "min": 0.98, "max": 1.12}}}],
///  "settings": {...}}
/// ```
///
/// `values` hold the medians.
struct BenchReport {
    let results: [BenchEntryResult]
    let settings: [String: String]

    // MARK: - Table

    var table: String {
        var lines: [String] = []
        for (key, value) in settings.sorted(by: { $0.key < $1.key }) {
            lines.append("\(key): \(value)")
        }
        for result in results {
            lines.append("")
            lines.append("\(result.name) (\(result.unit); \(result.note))")
            lines.append(
                "  " + pad("variant", 18) + padLeft("median", 14) + padLeft("min", 14) + padLeft("max", 14)
                    + padLeft("spread", 9))
            for variant in result.variants {
                let statistics = variant.statistics
                lines.append(
                    "  " + pad(variant.name, 18) + padLeft(format(statistics.median), 14)
                        + padLeft(format(statistics.min), 14) + padLeft(format(statistics.max), 14)
                        + padLeft(spread(statistics), 9))
            }
            for (numerator, denominator) in result.ratios {
                guard let ratio = result.ratio(numerator, denominator) else { continue }
                lines.append(
                    "  ratio " + pad("\(numerator)/\(denominator)", 22) + String(format: "%.3f", ratio.median)
                        + String(
                            format: "  (per round: quartiles %.3f-%.3f, min %.3f, max %.3f)",
                            ratio.lowerQuartile, ratio.upperQuartile, ratio.min, ratio.max))
            }
        }
        return lines.joined(separator: "\n")
    }

    private func format(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0f", value) : String(format: "%.1f", value)
    }

    private func spread(_ statistics: BenchStatistics) -> String {
        // A count whose median is 0 (busy errors) has no relative spread.
        guard statistics.median != 0 else { return "—" }
        return String(format: "±%.0f%%", (statistics.max - statistics.min) / 2 / statistics.median * 100)
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    private func padLeft(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }

    // MARK: - JSON

    func json() throws -> Data {
        var entries: [[String: Any]] = []
        for result in results {
            var values: [String: Double] = [:]
            var minimums: [String: Double] = [:]
            var maximums: [String: Double] = [:]
            for variant in result.variants {
                let statistics = variant.statistics
                values[variant.name] = statistics.median
                minimums[variant.name] = statistics.min
                maximums[variant.name] = statistics.max
            }
            var ratios: [String: [String: Double]] = [:]
            for (numerator, denominator) in result.ratios {
                guard let ratio = result.ratio(numerator, denominator) else { continue }
                ratios["\(numerator)/\(denominator)"] = [
                    "median": ratio.median, "min": ratio.min, "max": ratio.max,
                    "p25": ratio.lowerQuartile, "p75": ratio.upperQuartile,
                ]
            }
            entries.append([
                "name": result.name,
                "unit": result.unit,
                "note": result.note,
                "values": values,
                "min": minimums,
                "max": maximums,
                "samples": result.variants.first?.samples.count ?? 0,
                "ratios": ratios,
            ])
        }
        let document: [String: Any] = ["results": entries, "settings": settings]
        return try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
    }
}
