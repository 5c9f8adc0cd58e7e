import RMap
import RMapAuthoring
import Testing

@Suite("inspect JSON document")
struct ModelDescriptionTests {
    @Test("top-level keys, an attribute and a connection with predicates")
    func document() throws {
        let model = try InspectModels.load(InspectModels.team)
        let text = JSONWriter.serialize(ModelDescription.document(of: model))
        #expect(
            text.hasPrefix(
                #"{"schema":1,"files":["team.yml"],"store":null,"entities":[{"name":"Team","file":"team.yml","line":3,"column":3,"#
            ))
        #expect(
            text.contains(
                #"{"name":"city","type":"string","key":["address","city"],"column":"address_city","required":false,"readonly":false,"default":null,"map":{},"transform":[],"format":null,"time_zone":null,"empty_as_null":false,"wrap_single":false,"true_values":null,"false_values":null}"#
            ))
        #expect(
            text.contains(
                #"{"name":"buddies","kind":"to_many","destination":"Member","inverse":null,"nested":false,"embedded":false,"identify_nested_by_parent_key":null,"key":["buddies"],"assignment":"replace","missing":"keep","connection":{"foreign_key":[{"source":"id","destination":"id"}],"key_path":null,"include_subentities":false,"when":[{"attribute":"archived","condition":"eq","value":false}],"where":[{"attribute":"age","condition":"ge","value":18},{"attribute":"name","condition":"in","value":["Ann","Bo|b"]},{"attribute":"seenAt","condition":"null","value":false}]}}"#
            ))
        #expect(text.contains(#""sort":[{"attribute":"name","direction":"desc"}],"push":{"method":"put"}"#))
    }

    @Test("plugin options keep their types; environment values are redacted")
    func options() throws {
        let model = try InspectModels.load(InspectModels.nested, environment: ["TOKEN": "t0k3n"])
        let text = JSONWriter.serialize(ModelDescription.document(of: model))
        #expect(
            text.contains(
                #""source":{"plugin":"http","options":{"site":"https://api.example.com","headers":{"Authorization":"Bearer ***"}}}"#
            ))
        #expect(!text.contains("t0k3n"))
    }

    @Test("InspectFormat renders each format, ending with a newline")
    func formats() throws {
        let model = try InspectModels.load(InspectModels.team)
        #expect(InspectFormat.json.render(model) == JSONWriter.serialize(ModelDescription.document(of: model)) + "\n")
        #expect(InspectFormat.text.render(model) == ModelText.render(model))
        #expect(InspectFormat.mermaid.render(model) == MermaidDiagram.render(model))
        #expect(InspectFormat.dot.render(model) == DotGraph.render(model))
    }
}
