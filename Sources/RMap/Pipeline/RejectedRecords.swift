/// The record errors found after mapping, by `exec` transformers and stages,
/// from whichever thread or task finds them.
final class RejectedRecords: Sendable {
    private let errors = Locked<[RecordError]>([])

    /// Adds one.
    @Sendable func add(_ error: RecordError) {
        errors.withLock { $0.append(error) }
    }

    /// Every error added, in order.
    var all: [RecordError] { errors.withLock { $0 } }
}
