import RMap

/// How `rmap run` shows its report: a table per entity on stdout, rejected
/// records and dangling references on stderr.
struct RunReportOutput {
    let report: RunReport
    let model: MappingModel

    private static let headers = [
        "entity", "fetched", "inserted", "updated", "unchanged", "rejected", "dangling", "deleted", "unmapped",
    ]

    /// The columns shown only when a count is not zero: `skipped` when a source skipped requests
    /// (`on_status`), `nulls` when arrays of records held `null`s, `declined` when `unknown_type:
    /// skip` left records out, `stale` when `modified_by` skipped records older than the store's.
    private static var optional: [(header: String, count: (EntityRunCounts) -> Int)] {
        [("skipped", \.skipped), ("nulls", \.nullItems), ("declined", \.declined), ("stale", \.stale)]
    }

    /// The summary table, one line per entity that took part, then the totals, and the
    /// ``optional`` columns whose total is not zero.
    func table() -> String {
        let shown = report.entities.filter { counts in
            counts.fetched + counts.inserted + counts.updated + counts.unchanged + counts.deleted
                + counts.rejected + counts.dangling + counts.unmappedKeys
                + Self.optional.reduce(0) { $0 + $1.count(counts) } > 0
        }
        let extra = Self.optional.filter { $0.count(report.totals) > 0 }
        let rows = (shown + [report.totals]).map { counts in
            [
                counts.entity, "\(counts.fetched)", "\(counts.inserted)", "\(counts.updated)", "\(counts.unchanged)",
                "\(counts.rejected)", "\(counts.dangling)", "\(counts.deleted)", "\(counts.unmappedKeys)",
            ] + extra.map { "\($0.count(counts))" }
        }
        var text = TextTable.render([Self.headers + extra.map(\.header)] + rows)
        if report.dryRun { text += "dry run: nothing was written\n" }
        return text
    }

    /// Every rejected record and dangling reference, one a line, then a warning per entity whose
    /// arrays held `null` items or whose records were declined (`unknown_type: skip`).
    func printProblems(to errors: TextOutput) {
        for error in report.recordErrors { errors.line("rejected: \(model.redact(error.description))") }
        for error in report.connectErrors { errors.line("rejected: \(model.redact(error.description))") }
        for reference in report.dangling { errors.line("dangling: \(model.redact(reference.description))") }
        for counts in report.entities where counts.nullItems > 0 {
            let items = counts.nullItems == 1 ? "null item" : "null items"
            errors.line("skipped: \(counts.nullItems) \(items) in arrays of \(counts.entity) records")
        }
        for counts in report.entities where counts.declined > 0 {
            let records = counts.declined == 1 ? "record" : "records"
            errors.line(
                "declined: \(counts.declined) \(counts.entity) \(records) whose type names no entity (unknown_type: skip)"
            )
        }
    }

    /// The `--json` document of a run that failed before it had a report.
    static func failureDocument(_ message: String) -> JSONValue {
        .object(JSONObject([("status", .string("failed")), ("error", .string(message))]))
    }

    /// The `--json` document of a run that did not start (exit 2): the mapping files' errors, each as
    /// `rmap validate --json` lists it.
    static func invalidDocument(_ errors: [JSONValue]) -> JSONValue {
        .object(JSONObject([("status", .string("invalid")), ("errors", .array(errors))]))
    }

    /// The `--json` document of a run whose command line names what the files do not have (`--only`).
    static func invalidDocument(message: String) -> JSONValue {
        let error = JSONObject([("file", .null), ("line", .null), ("column", .null), ("message", .string(message))])
        return invalidDocument([.object(error)])
    }
}
