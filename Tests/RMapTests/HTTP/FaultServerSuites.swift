import Testing

/// The suites that talk to the fault server, run one test at a time: the
/// server's listen backlog is Python's default of 5, and a burst of parallel
/// connections overflows it into connection resets that no test asked for.
@Suite("Fault server", .serialized)
enum FaultServerSuites {}
