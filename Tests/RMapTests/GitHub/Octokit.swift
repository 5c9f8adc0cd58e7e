import Foundation
import RMapSQLite
import Testing

/// The recorded GitHub payloads of `Tests/Fixtures/octokit` (octokit/fixtures, MIT).
enum Octokit {
    /// `Tests/Fixtures/octokit`.
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/octokit")

    /// The text of a payload file.
    static func text(_ name: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
    }

    /// A payload file, parsed.
    static func json(_ name: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text(name).utf8))
    }

    /// A payload file whose top level is an array of objects.
    static func objects(_ name: String) throws -> [[String: Any]] {
        try #require(json(name) as? [[String: Any]], "\(name) is not an array of objects")
    }

    /// A payload file whose top level is one object.
    static func object(_ name: String) throws -> [String: Any] {
        try #require(json(name) as? [String: Any], "\(name) is not an object")
    }

    /// How many keys of `records` are not in `mapped`: what a run reports as unmapped.
    static func unmapped(_ records: [[String: Any]], mapped: Set<String>) -> Int {
        records.map { $0.keys.filter { !mapped.contains($0) }.count }.reduce(0, +)
    }

    /// JSON text serialized from a value.
    static func serialized(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value), as: UTF8.self)
    }

    /// Whether a stored column holds JSON text equal to `expected`.
    static func holdsJSON(_ stored: SQLiteValue, _ expected: Any) throws -> Bool {
        guard case .text(let text) = stored else { return false }
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
        return NSArray(object: parsed).isEqual(NSArray(object: expected))
    }

    /// Rows of text columns, each joined by spaces (e.g. `pragma_table_info` names and types).
    static func lines(_ rows: [[SQLiteValue]]) -> [String] {
        rows.map { row in
            row.map { value in if case .text(let text) = value { text } else { "\(value)" } }.joined(separator: " ")
        }
    }
}
