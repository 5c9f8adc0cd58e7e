import Foundation
import RMap
import Testing

@testable import RMapHTTP

/// Key paths through lists: where the records of a GraphQL answer are, where its `pageInfo` is,
/// and nested connections made into what the mapper reads.
@Suite("GraphQL key paths through lists")
struct ListPathTests {
    static func json(_ text: String) throws -> JSONValue { try JSONReader.parse(text, origin: "test") }

    static let page = """
        {"data": {"allPeople": {"pageInfo": {"hasNextPage": true, "endCursor": "YXJyYXk6MQ=="},
         "edges": [{"node": {"databaseId": 1, "teamMembers": {"edges": [{"node": {"databaseId": 7}}, {"node": null}]}}},
                   {"node": {"databaseId": 2, "teamMembers": {"edges": []}}}]}}}
        """

    @Test("a path through a list reaches each element's value, in order; nulls are left out")
    func values() throws {
        let document = try Self.json(Self.page)
        let nodes = try #require(ListPath.values(at: ["data", "allPeople", "edges", "node"], in: document))
        #expect(nodes.map { $0.object?["databaseId"] } == [.number("1"), .number("2")])
        let members = ListPath.values(at: ["teamMembers", "edges", "node"], in: nodes[0])
        #expect(members == [try Self.json(#"{"databaseId": 7}"#)])
        #expect(ListPath.values(at: ["data", "allPeople", "edgez", "node"], in: document) == nil)
        #expect(ListPath.values(at: ["data", "allPeople", "pageInfo", "hasNextPage", "x"], in: document) == nil)
    }

    @Test("pageInfo is found beside the first list the path runs through")
    func connection() throws {
        let document = try Self.json(Self.page)
        let connection = try #require(ListPath.connection(of: ["data", "allPeople", "edges", "node"], in: document))
        #expect(connection["pageInfo"]?.object?["endCursor"] == .string("YXJyYXk6MQ=="))
        let nodes = try Self.json(#"{"data": {"items": {"nodes": [1], "pageInfo": {"hasNextPage": false}}}}"#)
        #expect(ListPath.connection(of: ["data", "items", "nodes"], in: nodes)?["pageInfo"] != nil)
        #expect(ListPath.connection(of: ["data", "viewer"], in: try Self.json(#"{"data": {"viewer": {}}}"#)) == nil)
    }

    @Test("a nested connection becomes the list of its nodes at the relationship's key, at every level")
    func collapsing() throws {
        let yaml = """
            rmap: 1
            entities:
              Project:
                attributes: { id: { type: int, key: databaseId } }
                relationships:
                  teamMembers: { to_many: Person, nested: true, key: teamMembers.edges.node }
                  lead: { to_one: Person, nested: true, key: lead.edges.node }
              Person:
                attributes: { id: { type: int, key: databaseId } }
                relationships:
                  pets: { to_many: Pet, nested: true, key: pets.nodes }
              Pet:
                attributes: { id: { type: int, key: databaseId } }
            """
        let model = try MappingLoader(environment: [:]).load(documents: [("test.yml", yaml)])
        let record = try Self.json(
            """
            {"databaseId": 1, "teamMembers": {"pageInfo": {"hasNextPage": false},
              "edges": [{"node": {"databaseId": 7, "pets": {"nodes": [{"databaseId": 70}]}}}, {"node": {"databaseId": 8}}]},
             "lead": {"edges": [{"node": {"databaseId": 7}}]}}
            """)
        let collapsed = ListPath.collapsing(record, for: try #require(model.entity(named: "Project")), model: model)
        #expect(
            collapsed
                == (try Self.json(
                    """
                    {"databaseId": 1, "teamMembers": {"pageInfo": {"hasNextPage": false},
                      "edges": {"node": [{"databaseId": 7, "pets": {"nodes": [{"databaseId": 70}]}}, {"databaseId": 8}]}},
                     "lead": {"edges": {"node": {"databaseId": 7}}}}
                    """)))
        // A record whose connections hold no list is left as it is.
        let plain = try Self.json(#"{"databaseId": 2, "lead": null}"#)
        #expect(ListPath.collapsing(plain, for: try #require(model.entity(named: "Project")), model: model) == plain)
    }
}
