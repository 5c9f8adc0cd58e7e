// Lists the ten people first by last name with their project counts, then edits and saves one email,
// against the Rails app at RAILS_URL, through rmap's live session (docs/live.md).
import Foundation
import RMap
import RMapHTTP
import RMapSQLite

/// The example's work: one query, a to-many fault per person, one edit saved.
func listAndEdit(mapping: String, store: String) async throws {
    let registry = PluginRegistry()
    registry.registerHTTP()
    registry.registerSQLite()  // crm.yml names an sqlite store
    let model = try MappingLoader(catalog: registry.catalog).load([mapping])
    let session = Session(model: model, store: try SQLiteStore(path: store), registry: registry)

    // One query: GET /people.json?limit=10&offset=0&order=last_name%20asc
    let people = try await session.fetch("CRMPerson", sort: [.ascending("lastName")], limit: 10, offset: 0)
    for person in people {
        let first: String? = try person["firstName"]
        let last: String? = try person["lastName"]
        // On first access: GET /people/{id}/projects.json
        let projects = try await person.related("projects")
        print("\(first ?? "") \(last ?? ""): \(projects.count) project(s)")
    }

    // A local change, then PUT /people/{id}.json with only the email (of a plain person: an admin,
    // a sub-entity, would go to its own path, as `rmap push` sends it).
    let plain = people.filter { $0.entity == "CRMPerson" && $0.values["email"] != .null }
    guard let person = plain.first, let email: String = try person["email"] else { return }
    try await person.set("email", to: "live." + email)
    let report = try await session.save()
    let saved = try await session.object(person.entity, identity: person.identity)
    let stored: String? = try saved?["email"]
    print("saved \(report.push.sent) request(s): \(person) email \(stored ?? "")")
}

guard let site = ProcessInfo.processInfo.environment["RAILS_URL"], !site.isEmpty else {
    FileHandle.standardError.write(Data("live: set RAILS_URL, e.g. RAILS_URL=http://127.0.0.1:3000\n".utf8))
    exit(2)
}
let mapping = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../rails/crm.yml").standardized.path
let store = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID()).sqlite").path
do {
    try await listAndEdit(mapping: mapping, store: store)
    try? FileManager.default.removeItem(atPath: store)
} catch {
    try? FileManager.default.removeItem(atPath: store)
    FileHandle.standardError.write(Data("live: \(error)\n".utf8))
    exit(1)
}
