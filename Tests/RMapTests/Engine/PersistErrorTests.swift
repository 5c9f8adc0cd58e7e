import Foundation
import RMap
import RMapSQLite
import Testing

@Suite("Persist errors")
struct PersistErrorTests {
    typealias F = StoreFixtures

    @Test("a JSON store file that holds no object fails with the path, before any write")
    func notOneObject() throws {
        let path = try F.temporaryDirectory().appendingPathComponent("list.json").path
        try Data("[1, 2]".utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: PersistError.self) { try JSONStore(path: path) }
        #expect(error == .notOneObject(path: path))
        #expect(error.description == "\(path): a JSON store must hold one object")
    }

    @Test("a JSON store row that is not an object names its table")
    func rowNotObject() throws {
        let path = try F.temporaryDirectory().appendingPathComponent("rows.json").path
        try Data(#"{"projects": [7]}"#.utf8).write(to: URL(fileURLWithPath: path))
        let schema = GraphSchema(model: try F.model())
        let error = try #require(throws: PersistError.self) {
            try JSONStore(path: path).objects(schema: schema).rows(of: "CRMProject")
        }
        guard case .rowNotObject(_, let table, let kind) = error else {
            Issue.record("not a row error: \(error)")
            return
        }
        #expect(table == "projects")
        #expect(error.description.hasSuffix(": a row of 'projects' is \(kind), not an object"))
    }
}
