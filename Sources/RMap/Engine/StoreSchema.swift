/// Brings a store's tables up to a layout through an engine: the tables and columns it lacks
/// (``SchemaDiff``, in the engine's dialect), then the engine's base capture for them
/// (``SQLEngine/ensureCapture(_:)``). Nothing is dropped or retyped.
///
/// ```swift
/// try StoreSchema.ensure(StoreLayout(schema: schema), on: engine)
/// ```
package enum StoreSchema {
    /// Creates what `layout` needs and the store lacks. Call inside a write transaction: a
    /// rollback leaves the store as it was, schema included.
    ///
    /// - Throws: ``PersistError/tableNameTooLong(_:engine:limit:)``, or the engine's errors.
    package static func ensure(_ layout: StoreLayout, on engine: any SQLEngine) throws {
        try engine.create(diff(layout, on: engine))
        try engine.ensureCapture(layout)
    }

    /// True when the store holds `layout` already, found by reading only.
    static func holds(_ layout: StoreLayout, on engine: any SQLEngine) throws -> Bool {
        try diff(layout, on: engine).isEmpty && engine.holdsCapture(layout)
    }

    private static func diff(_ layout: StoreLayout, on engine: any SQLEngine) throws -> SchemaDiff {
        var existing: [String: Set<String>] = [:]
        for name in SchemaDiff.tableNames(layout) { existing[name] = Set(try engine.columns(of: name)) }
        return SchemaDiff(layout, existing: existing)
    }
}
