import RMap
import RMapAuthoring
import Testing

/// `rmap inspect` shows the JSON:API type each entity maps and where each relationship's linkage is kept.
@Suite("Inspect: JSON:API")
struct InspectJSONAPITests {
    @Test("text: a jsonapi line with the type and the linkage attributes; the hidden attributes are listed")
    func text() throws {
        let model = try JSONAPISourceOptionsTests.model()
        let text = ModelText.render(model)
        #expect(text.contains("CRMProject (test.yml:16:3)\n  element: project\n"))
        #expect(
            text.contains(
                "  source: none (arrives nested)\n  jsonapi: type projects, linkage {owner: ownerId + ownerType}\n"))
        #expect(text.contains("  jsonapi: type people\n"))
        #expect(text.contains("    ownerId: int, key owner.id, column owner_id\n"))
        #expect(
            text.contains(
                "    owner: to_one CRMPerson, inverse projects, key owner, foreign_key {ownerId -> id}, include_subentities true\n"
            ))
    }

    @Test("json: the jsonapi object, null for an entity of another source")
    func json() throws {
        let model = try JSONAPISourceOptionsTests.model()
        let entities = ModelDescription.document(of: model).object?["entities"]?.array ?? []
        let task = try #require(entities.first { $0.object?["name"] == .string("CRMTask") }?.object)
        #expect(
            task["jsonapi"]
                == .object(
                    JSONObject([
                        ("type", .string("tasks")),
                        (
                            "linkage",
                            .array([
                                .object(
                                    JSONObject([
                                        ("relationship", .string("project")), ("member", .string("project")),
                                        ("ids", .string("projectId")), ("types", .null),
                                    ]))
                            ])
                        ),
                    ])))
        let rails = try LoaderHarness.load("rmap: 1\nentities:\n  P: {attributes: {id: int}}\n")
        let plain = ModelDescription.document(of: rails).object?["entities"]?.array?.first?.object
        #expect(plain?["jsonapi"] == .null)
    }
}
