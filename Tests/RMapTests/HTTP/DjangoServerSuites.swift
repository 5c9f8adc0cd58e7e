import Testing

/// The suites that use the shared Django test app, run one test at a time: they reset its data,
/// and some change it or count its throttled requests.
@Suite("Django server", .serialized)
enum DjangoServerSuites {}
