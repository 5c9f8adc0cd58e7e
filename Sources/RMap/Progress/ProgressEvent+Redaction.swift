extension ProgressEvent {
    /// The event with secrets hidden in the text it shows (a fetched file's path, a note).
    ///
    /// ```swift
    /// progress.report(event.redacted(by: model.redactor))
    /// ```
    public func redacted(by redactor: Redactor) -> ProgressEvent {
        switch self {
        case .fetched(let entity, let origin): .fetched(entity: entity, origin: redactor.redact(origin))
        case .note(let text): .note(redactor.redact(text))
        case .stageStarted, .stageFinished, .mapped, .nested, .expected, .advanced, .entityFetched: self
        }
    }
}
