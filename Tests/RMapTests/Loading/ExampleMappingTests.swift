import Foundation
import RMap
import Testing

/// The product's example (`mappings/*.yml` with `samples/*.json`) must load cleanly
/// and its samples must fit it: every value converts, every reference resolves.
@Suite("The example CRM mapping")
struct ExampleMappingTests {
    static let root = LoaderHarness.packageRoot

    private func model() throws -> MappingModel {
        try MappingLoader(environment: [:], catalog: LoaderHarness.catalog)
            .load(["\(Self.root)/mappings/crm.yml", "\(Self.root)/mappings/work.yml"])
    }

    private func sample(_ name: String) throws -> JSONValue {
        let path = "\(Self.root)/samples/\(name)"
        let data = try #require(FileManager.default.contents(atPath: path))
        return try JSONReader.parse(data, origin: path)
    }

    @Test func validatesCleanly() throws {
        let model = try model()
        #expect(model.entities.map(\.name) == ["CRMPerson", "CRMAdmin", "CRMProject", "CRMTask"])
        #expect(model.store?.resolvePath("../rmap.sqlite") == "\(Self.root)/rmap.sqlite")
    }

    @Test func namesResolveAsDocumented() throws {
        let model = try model()
        let person = try #require(model.entity(named: "CRMPerson"))
        #expect((person.element, person.collection, person.identity) == ("person", "people", ["id"]))
        #expect(person.attribute(named: "firstName")?.keyPath == ["first_name"])
        #expect(person.attribute(named: "city")?.column == "address_city")
        #expect(person.types == ["Person": "CRMPerson", "Admin": "CRMAdmin"])
        #expect(person.relationship(named: "projects")?.inverse == "owner")
        let admin = try #require(model.entity(named: "CRMAdmin"))
        #expect(admin.source == nil)
        #expect(admin.attributes.count == person.attributes.count + 1)
        let project = try #require(model.entity(named: "CRMProject"))
        #expect(project.relationship(named: "owner")?.inverse == "projects")
        #expect(project.relationship(named: "teamMembers")?.connection?.destinationPredicate.isEmpty == false)
        #expect(project.relationship(named: "tasks")?.nested == true)
        let task = try #require(model.entity(named: "CRMTask"))
        #expect(task.source == nil)
        #expect(task.relationship(named: "project")?.inverse == "tasks")
        #expect(
            model.entity(named: "CRMProject")?.source?.resolvePath("../samples/projects.json")
                == "\(Self.root)/samples/projects.json")
    }

    @Test func samplesFitTheMapping() throws {
        let model = try model()
        let people = try #require(try sample("people.json").array)
        let projects = try #require(try sample("projects.json").object?["projects"]?.array)
        #expect(people.count == 12)
        #expect(projects.count == 15)

        var personIds: Set<Int64> = []
        var activeIds: Set<Int64> = []
        for record in people {
            let object = try #require(record.object)
            let type = try #require(object["type"]?.string)
            let name = try #require(model.entity(named: "CRMPerson")?.types[type])
            let entity = try #require(model.entity(named: name))
            let values = try convert(object, as: entity)
            guard case .int(let id)? = values["id"] else { throw Mismatch(what: "person without id") }
            #expect(personIds.insert(id).inserted, "person \(id) twice")
            if values["active"] == .bool(true) { activeIds.insert(id) }
        }
        #expect(people.filter { $0.object?["type"]?.string == "Admin" }.count == 2)

        let project = try #require(model.entity(named: "CRMProject"))
        let task = try #require(model.entity(named: "CRMTask"))
        var taskIds: Set<Int64> = []
        var tasksWithoutDueDate = 0
        for record in projects {
            let object = try #require(record.object)
            let values = try convert(object, as: project)
            guard case .int(let owner)? = values["personId"] else { throw Mismatch(what: "project without owner") }
            #expect(personIds.contains(owner), "dangling person_id \(owner)")
            for member in values["teamMemberIds"]?.members ?? [] {
                guard case .int(let id) = member else { throw Mismatch(what: "team member id \(member)") }
                #expect(activeIds.contains(id), "team member \(id) is missing or inactive")
            }
            for nested in try #require(object["tasks"]?.array) {
                let taskObject = try #require(nested.object)
                let taskValues = try convert(taskObject, as: task)
                guard case .int(let id)? = taskValues["id"] else { throw Mismatch(what: "task without id") }
                #expect(taskIds.insert(id).inserted, "task \(id) twice")
                if taskValues["dueAt"] == .null { tasksWithoutDueDate += 1 }
            }
        }
        #expect(taskIds.count == 40)
        #expect(tasksWithoutDueDate > 0)
    }

    private struct Mismatch: Error, CustomStringConvertible {
        var what: String
        var description: String { what }
    }

    /// Every mapped attribute of a record, converted as the mapping says; a value that does not
    /// convert, or a required one that is missing, fails the test.
    private func convert(_ record: JSONObject, as entity: EntityMapping) throws -> [String: Value] {
        var values: [String: Value] = [:]
        for attribute in entity.attributes {
            var current: JSONValue? = .object(record)
            for segment in attribute.keyPath { current = current?.object?[segment] }
            guard let json = current else {
                #expect(!attribute.required, "\(entity.name).\(attribute.name) is required")
                continue
            }
            guard let value = ValueConverter.value(from: json, as: attribute.type, format: attribute.format) else {
                throw Mismatch(what: "\(entity.name).\(attribute.name): \(json) is not \(attribute.type)")
            }
            values[attribute.name] = value
        }
        return values
    }
}
