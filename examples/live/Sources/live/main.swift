// Lists the ten people first by last name with their project counts, then edits and saves one email,
// against the Rails app at RAILS_URL, through rmap's live session (docs/live.md).
import Foundation
import RMap
import RMapHTTP
import RMapSQLite

guard let site = ProcessInfo.processInfo.environment["RAILS_URL"], !site.isEmpty else {
    FileHandle.standardError.write(Data("live: set RAILS_URL, e.g. RAILS_URL=http://127.0.0.1:3000\n".utf8))
    exit(2)
}
let mapping = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../rails/crm.yml").standardized.path
let registry = PluginRegistry()
registry.registerHTTP()
let model = try MappingLoader(catalog: registry.catalog).load([mapping])
let storePath = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID()).sqlite").path
defer { try? FileManager.default.removeItem(atPath: storePath) }
let session = Session(model: model, store: try SQLiteStore(path: storePath), registry: registry)

// One query: GET /people.json?limit=10&offset=0&order=last_name asc
let people = try await session.fetch("CRMPerson", sort: [.ascending("lastName")], limit: 10, offset: 0)
for person in people {
    let first: String? = try person["firstName"]
    let last: String? = try person["lastName"]
    // On first access: GET /people/{id}/projects.json
    let projects = try await person.related("projects")
    print("\(first ?? "") \(last ?? ""): \(projects.count) project(s)")
}

var first = people[0]
let email: String? = try first["email"]
let edited = "live." + (email ?? "someone@example.com")
try await first.set("email", to: edited)
let report = try await session.save()
let saved = try await session.object(first.entity, identity: first.identity)
let stored: String? = try saved?["email"]
print("saved \(report.push.sent) request(s): \(first) email \(stored ?? "")")
