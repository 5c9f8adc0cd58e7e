extension CLIResult {
    /// The progress lines of entities fetched (`fetched CRMPerson: 12 records from samples/people.json `),
    /// up to the size, time and rate that vary from run to run.
    var fetchedLines: [String] {
        stderr.split(separator: "\n").filter { $0.hasPrefix("fetched ") }.map { String($0.prefix { $0 != "(" }) }
    }
}
