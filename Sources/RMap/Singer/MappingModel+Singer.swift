extension MappingModel {
    /// The model with every entity that has a source reading a Singer stream on standard
    /// input instead (`stdin` with `format: singer`): what `rmap run --singer` runs, so that
    /// `tap-foo | rmap run mappings/*.yml --singer` makes the tap's streams a connected graph.
    /// Entities fetched once per parent (`nested_path`) read the same stream as the others.
    public func readingSinger() -> MappingModel {
        let stdin = PluginConfig(plugin: "stdin", options: ["format": "singer"])
        let entities = entities.map { entity in
            var entity = entity
            if entity.source != nil { entity.source = stdin }
            entity.nestedPath = nil  // one stream feeds every entity at once: no fetch per parent
            return entity
        }
        var singer = MappingModel(
            entities: entities, store: store, inflector: inflector, files: files, secrets: secrets)
        singer.loadedFrom = loadedFrom.map { "singer \($0)" }
        return singer
    }

}
