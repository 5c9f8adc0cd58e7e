import RMap

/// How `rmap run` shows its report: a table per entity on stdout, rejected
/// records and dangling references on stderr.
struct RunReportOutput {
    let report: RunReport
    let model: MappingModel

    private static let headers = [
        "entity", "fetched", "inserted", "updated", "unchanged", "rejected", "dangling", "deleted", "unmapped",
    ]

    /// The summary table, one line per entity that took part, then the totals; a `skipped`
    /// column when a source skipped requests (`on_status`).
    func table() -> String {
        let shown = report.entities.filter { counts in
            counts.fetched + counts.inserted + counts.updated + counts.unchanged + counts.deleted
                + counts.rejected + counts.dangling + counts.unmappedKeys + counts.skipped > 0
        }
        let skipping = report.totals.skipped > 0
        let rows = (shown + [report.totals]).map { counts in
            [
                counts.entity, "\(counts.fetched)", "\(counts.inserted)", "\(counts.updated)", "\(counts.unchanged)",
                "\(counts.rejected)", "\(counts.dangling)", "\(counts.deleted)", "\(counts.unmappedKeys)",
            ] + (skipping ? ["\(counts.skipped)"] : [])
        }
        var text = TextTable.render([Self.headers + (skipping ? ["skipped"] : [])] + rows)
        if report.dryRun { text += "dry run: nothing was written\n" }
        return text
    }

    /// Every rejected record and dangling reference, one a line.
    func printProblems(to errors: TextOutput) {
        for error in report.recordErrors { errors.line("rejected: \(model.redact(error.description))") }
        for error in report.connectErrors { errors.line("rejected: \(model.redact(error.description))") }
        for reference in report.dangling { errors.line("dangling: \(model.redact(reference.description))") }
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
