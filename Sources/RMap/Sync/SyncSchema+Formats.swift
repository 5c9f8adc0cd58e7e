/// Where the Rails and JSON:API forms of a push part: the request of a change, an answer laid
/// over a row, the messages of a refused write. An entity whose source has `format: jsonapi`
/// goes through ``JSONAPICodec``, every other through ``RecordCodec`` and ``RequestBuilder``.
extension SyncSchema {
    /// The JSON:API codec of `entity`, or `nil` for a Rails entity.
    func jsonAPI(_ entity: EntitySync) -> JSONAPICodec? {
        JSONAPICodec(entity: entity, sync: self)
    }

    /// `values` with the server's `answer` laid over, read in the entity's form.
    func merging(_ answer: JSONValue, into values: [Value], of entity: EntitySync) -> [Value] {
        jsonAPI(entity)?.merging(answer, into: values) ?? RecordCodec(entity: entity).merging(answer, into: values)
    }

    /// The messages of an answer refusing a write to `entity`: Rails' `422` errors
    /// (``ValidationMessages``), or a JSON:API `errors[]` of any `4xx`; empty when there are none.
    func messages(status: Int?, answer: JSONValue?, of entity: String) -> [String] {
        guard let status, (400..<500).contains(status) else { return [] }
        if let sync = try? self.entity(named: entity), let codec = jsonAPI(sync) { return codec.messages(answer) }
        return status == 422 ? ValidationMessages.parse(answer) : []
    }
}
