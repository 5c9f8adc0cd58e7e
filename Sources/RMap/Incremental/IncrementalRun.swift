/// The incremental state of one run: the cursors read before fetching, and
/// the run-state update written with the run's data.
///
/// A `--full` run reads no cursor (every entity is fetched in full) and
/// replaces the stored cursors of the entities it fetched with its own maxima.
struct IncrementalRun {
    /// The cursors the sources send.
    let cursors: IncrementalCursors
    private let model: MappingModel
    private let fetched: Set<String>
    private let full: Bool
    /// The stored cursors, kept for a full run to replace.
    private let previous: IncrementalCursors

    /// The incremental entities among `fetched`.
    static func entities(of model: MappingModel, fetched: Set<String>) -> [EntityMapping] {
        model.entities.filter { $0.incremental != nil && fetched.contains($0.name) }
    }

    /// The run of `fetched` from the stored cursors, the run-state entries of
    /// ``IncrementalCursors/scope`` (read when any fetched entity is incremental).
    init(model: MappingModel, fetched: Set<String>, full: Bool, stored: [String: RunStateEntry]) {
        self.model = model
        self.fetched = fetched
        self.full = full
        previous = IncrementalCursors(stored: stored)
        cursors = full ? IncrementalCursors() : previous
    }

    /// `fetched` less the entities fetched incrementally, whose orphans no run may tell.
    func completeEntities() -> Set<String> {
        fetched.subtracting(Self.entities(of: model, fetched: fetched).filter(cursors.isPartial).map(\.name))
    }

    /// The incremental entities this run fetched.
    var fetchedEntities: [EntityMapping] { Self.entities(of: model, fetched: fetched) }

    /// The cursors the run advances to from each entity's maxima (by cursor key), as a run-state update.
    func update(maxima: (EntityMapping) throws -> [String: Value]) rethrows -> RunStateUpdate {
        var update = RunStateUpdate()
        for entity in Self.entities(of: model, fetched: fetched) {
            if full {
                for key in previous.keys(of: entity.name) { update.remove(scope: IncrementalCursors.scope, key: key) }
            }
            let type = entity.attribute(named: entity.incremental?.cursor ?? "")?.type ?? .string
            for (key, value) in try maxima(entity) {
                guard let json = CursorValue.json(value) else { continue }
                // An incremental run never moves a cursor back (its lag window may hold only older objects).
                if !full, let stored = previous.stored[key].flatMap({ CursorValue.value($0, type: type) }),
                    ValueOrdering.compare(value, stored) == .orderedAscending
                {
                    continue
                }
                update.set(scope: IncrementalCursors.scope, key: key, to: json)
            }
        }
        return update
    }
}
