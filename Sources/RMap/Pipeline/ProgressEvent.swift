/// Something the pipeline reports while it runs; the CLI draws it, a library user may ignore it.
public enum ProgressEvent: Sendable {
    /// A stage started.
    case stageStarted(String)
    /// Records mapped so far for an entity.
    case mapped(entity: String, records: Int)
    /// A page or file fetched.
    case fetched(entity: String, origin: String)
    /// A stage finished.
    case stageFinished(String)
    /// Free text (e.g. a retry).
    case note(String)
}
