import RMap
import RMapAuthoring
import Testing

@Suite("Graphviz digraph")
struct DotGraphTests {
    @Test("record nodes with each entity's own attributes, extends and relationship edges")
    func team() throws {
        let model = try InspectModels.load(InspectModels.team)
        #expect(
            DotGraph.render(model) == #"""
                digraph rmap {
                    rankdir=LR;
                    node [shape=record, fontname="Helvetica", fontsize=10];
                    edge [fontname="Helvetica", fontsize=9];
                    "Team" [label="{Team|table teams|id: int\lname: string\l}"];
                    "Member" [label="{Member|table members|id: int\lname: string\lteamId: int\lcity: string\larchived: bool\lage: int\lseenAt: datetime\l}"];
                    "Lead" [label="{Lead|table members|budget: decimal\l}"];
                    "Lead" -> "Member" [label="extends", style=dashed, arrowhead=empty];
                    "Team" -> "Member" [label="members / team", dir=both, arrowhead=crow, arrowtail=tee];
                    "Member" -> "Member" [label="buddies", arrowhead=crow];
                }

                """#)
    }

    @Test("record syntax characters in names are escaped")
    func escaping() {
        let mark = Mark(file: "x.yml", line: 1, column: 1)
        var entity = EntityMapping(
            name: "Odd", element: "odd", collection: "odds", path: "odds", identity: [], file: "x.yml", mark: mark)
        entity.attributes = [
            AttributeMapping(name: "a<b>|{c}", type: .array(.int), keyPath: ["a"], column: "a", mark: mark)
        ]
        #expect(
            DotGraph.render(MappingModel(entities: [entity])).contains(
                #"    "Odd" [label="{Odd|table odds|a\<b\>\|\{c\}: [int]\l}"];"#))
    }
}
