/// Something the pipeline reports while it runs; the CLI draws it, a library user may ignore it.
public enum ProgressEvent: Sendable {
    /// A stage started.
    case stageStarted(String)
    /// Records of an entity (and its sub-entities) that its own payloads brought so far.
    case mapped(entity: String, records: Int)
    /// Records of `entity` (a root entity, counting its sub-entities) that arrived nested in
    /// `within`'s payloads so far: the tasks inside projects.
    case nested(entity: String, within: String, records: Int)
    /// A page or file fetched.
    case fetched(entity: String, origin: String)
    /// A stage finished.
    case stageFinished(String)
    /// Free text (e.g. a retry).
    case note(String)
    /// More work ahead for an entity, as far as its source knows (added to what it announced before):
    /// the bytes of the files it will read, the pages a server says an index has.
    case expected(entity: String, amount: Int, unit: ProgressUnit)
    /// Work done for an entity (added up): a file's bytes once mapped, a page.
    case advanced(entity: String, amount: Int, unit: ProgressUnit)
    /// Every payload of an entity is fetched and mapped.
    case entityFetched(String)
}

/// What a source counts its work in, for progress with a percent and an ETA.
public enum ProgressUnit: Sendable, Hashable {
    /// Bytes of payload files.
    case bytes
    /// Pages of an index.
    case pages
}
