extension MappingModel {
    /// The suffix of an entity's paths in the requests of a push (`/people/2.json`): the `suffix`
    /// option of its `http` source (a sub-entity without a source of its own sends through its
    /// root's; a JSON:API resource through its ``JSONAPIResource/source``, its file's when it
    /// has none), else `.json`, as `rmap diff` prints them for an entity without one.
    ///
    /// ```swift
    /// model.pathSuffix(of: "CRMPerson")   // ".json"
    /// ```
    public func pathSuffix(of entity: String) -> String {
        guard let mapping = self.entity(named: entity),
            let source = mapping.jsonAPI?.source ?? mapping.source ?? root(of: mapping).source,
            source.plugin == "http",
            let suffix = source["suffix"]?.scalar, !suffix.isNull
        else { return ".json" }
        return suffix.text
    }
}
