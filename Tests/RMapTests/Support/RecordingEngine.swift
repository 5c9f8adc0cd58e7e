@testable import RMap

/// An engine that runs everything on another and records the transactions it begins
/// (`begin`, `beginRead`) and the base captures it makes sure of (`ensureCapture`, once per
/// schema check of a write): what the sync API's scopes are tested by; and the rows each query
/// returned (``queryRows``, readable from any thread): what the readers' paging is tested by;
/// and the text of each query (``queries``), for asking the engine how it plans one.
/// ``willCommitWrite``, when set, runs before each write transaction's commit, inside it: a
/// store's own form written at commit, or a commit that fails.
final class RecordingEngine: SQLEngine {
    let base: any SQLEngine
    /// What was begun or made sure of, in order.
    var events: [String] = []
    /// The rows each query returned, in order.
    let queryRows = Locked<[Int]>([])
    /// Each query's text, in order.
    let queries = Locked<[String]>([])
    /// Runs on the base engine before a write transaction commits; a throw fails the commit.
    var willCommitWrite: ((any SQLEngine) throws -> Void)?
    private var writing = false

    init(_ base: any SQLEngine) {
        self.base = base
    }

    var dialect: any SQLDialect.Type { base.dialect }

    func execute(_ sql: String, _ parameters: [Value]) throws -> Int { try base.execute(sql, parameters) }

    func query(_ sql: String, _ parameters: [Value], types: [AttributeType], row: ([Value]) throws -> Void) throws {
        queries.withLock { $0.append(sql) }
        var count = 0
        try base.query(sql, parameters, types: types) { values in
            count += 1
            try row(values)
        }
        queryRows.withLock { $0.append(count) }
    }

    func insert(into table: String, columns: [ColumnLayout], rows: some Collection<[Value]>) throws {
        try base.insert(into: table, columns: columns, rows: rows)
    }

    func execute(rows: [[Value]], width: Int, statement: (String) -> String) throws {
        try base.execute(rows: rows, width: width, statement: statement)
    }

    func begin(_ kind: SQLTransactionKind) throws {
        events.append(kind == .read ? "beginRead" : "begin")
        try base.begin(kind)
        writing = kind == .write
    }

    func commit() throws {
        if writing, let willCommitWrite { try willCommitWrite(base) }
        writing = false
        try base.commit()
    }

    func rollback() {
        writing = false
        base.rollback()
    }

    func create(_ diff: SchemaDiff) throws { try base.create(diff) }
    func willInsert(into table: String, rowCount: () throws -> Int) throws {
        try base.willInsert(into: table, rowCount: rowCount)
    }
    func columns(of table: String) throws -> [String] { try base.columns(of: table) }

    func ensureCapture(_ layout: StoreLayout) throws {
        events.append("ensureCapture")
        try base.ensureCapture(layout)
    }

    func holdsCapture(_ layout: StoreLayout) throws -> Bool { try base.holdsCapture(layout) }
    func setLocalEdits(_ local: Bool) throws { try base.setLocalEdits(local) }
}
