extension Diagnostics {
    /// Reports `attribute` as unknown, with the closest of its names, unless `entity` has it.
    func checkAttribute(_ attribute: String, on entity: EntityMapping, in what: String, at mark: Mark) {
        guard entity.attribute(named: attribute) == nil else { return }
        error(
            mark,
            "unknown attribute '\(attribute)' on '\(entity.name)' in \(what)"
                + Suggestion.hint(for: attribute, in: entity.attributes.map(\.name)))
    }
}
