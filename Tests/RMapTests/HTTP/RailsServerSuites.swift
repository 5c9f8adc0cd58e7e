import Testing

/// The suites that use the shared Rails test app, run one test at a time:
/// push tests reset and change its data, which other suites read.
@Suite("Rails server", .serialized)
enum RailsServerSuites {}
