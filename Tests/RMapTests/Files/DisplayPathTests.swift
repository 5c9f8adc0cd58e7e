import RMap
import Testing

@Suite("DisplayPath: paths as messages show them")
struct DisplayPathTests {
    @Test(
        "lexical normalisation; a path that leaves the current directory and comes back is relative to it",
        arguments: [
            ("mappings/../samples/people.json", "samples/people.json"),
            ("./mappings/crm.yml", "mappings/crm.yml"),
            ("a//b/./c/", "a/b/c"),
            ("./../rmap/samples/x.json", "samples/x.json"),
            ("../other/x.json", "../other/x.json"),
            ("../../x.json", "../../x.json"),
            ("/work/rmap/./crm.sqlite", "/work/rmap/crm.sqlite"),
            ("../rmap", "."),
            ("/work/rmapx/crm.sqlite", "/work/rmapx/crm.sqlite"),
            ("/data/../data/./crm.sqlite", "/data/crm.sqlite"),
            ("/../x", "/x"),
            ("a/..", "."),
            (":memory:", ":memory:"),
        ])
    func normalize(path: String, shown: String) {
        #expect(DisplayPath.normalize(path, currentDirectory: "/work/rmap") == shown)
    }

    @Test("in / a relative path cannot leave the current directory")
    func rootDirectory() {
        #expect(DisplayPath.normalize("../tmp/y.json", currentDirectory: "/") == "tmp/y.json")
    }

    @Test("a store or source path resolves against its mapping file's folder, normalised")
    func resolvePath() {
        let config = PluginConfig(plugin: "file", options: [:], baseDirectory: "mappings")
        #expect(config.resolvePath("../samples/people.json") == "samples/people.json")
        #expect(config.resolvePath("/data/x.json") == "/data/x.json")
    }
}
