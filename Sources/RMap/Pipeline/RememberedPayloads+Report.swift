extension RememberedPayloads {
    /// Once the run's data is committed, the payloads to remember, with their hashes: those mapped
    /// in this run none of whose records `report` rejected or found dangling.
    func confirmed(report: RunReport) -> [String: String] {
        var troubled = Set(report.recordErrors.map(\.origin))
        // A dangling reference names its source's record: `origin#index`.
        troubled.formUnion(report.dangling.map { Self.payload(ofRecord: $0.origin) })
        guard report.connectErrors.isEmpty else { return [:] }
        return candidates.withLock { $0 }.filter { !troubled.contains($0.key) }
    }

    /// The payload of a record's origin `payload#index` (`origin` itself when it names no record).
    private static func payload(ofRecord origin: String) -> String {
        guard let mark = origin.lastIndex(of: "#"), origin[origin.index(after: mark)...].allSatisfy(\.isNumber),
            mark < origin.index(before: origin.endIndex)
        else { return origin }
        return String(origin[..<mark])
    }
}
