import RMap

extension ProgressEvent {
    /// The event with the model's secrets hidden in the text it shows (a fetched file's path, a note).
    func redacted(by model: MappingModel) -> ProgressEvent {
        switch self {
        case .fetched(let entity, let origin): .fetched(entity: entity, origin: model.redact(origin))
        case .note(let text): .note(model.redact(text))
        case .stageStarted, .stageFinished, .mapped, .nested, .expected, .advanced, .entityFetched: self
        }
    }
}
