import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `rmap test --format junit`: the JUnit XML report CI servers read (a `testsuite` per test
/// file, a `testcase` per case, a `failure` holding what differed), written by Foundation's XML.
enum JUnitReport {
    /// The report of these results.
    static func xml(_ results: [MappingTestResult]) -> String {
        let root = XMLElement(name: "testsuites")
        root.addAttribute(attribute("name", "rmap test"))
        root.addAttribute(attribute("tests", String(results.count)))
        root.addAttribute(attribute("failures", String(results.filter { !$0.passed }.count)))
        var files: [String] = []
        for result in results where !files.contains(result.file) { files.append(result.file) }
        for file in files {
            let cases = results.filter { $0.file == file }
            let suite = XMLElement(name: "testsuite")
            suite.addAttribute(attribute("name", file))
            suite.addAttribute(attribute("tests", String(cases.count)))
            suite.addAttribute(attribute("failures", String(cases.filter { !$0.passed }.count)))
            for result in cases {
                let testCase = XMLElement(name: "testcase")
                testCase.addAttribute(attribute("classname", file))
                testCase.addAttribute(attribute("name", result.name))
                if !result.passed {
                    let failure = XMLElement(
                        name: "failure", stringValue: result.failures.map(\.description).joined(separator: "\n"))
                    failure.addAttribute(
                        attribute(
                            "message",
                            result.failures.count == 1 ? "1 difference" : "\(result.failures.count) differences"))
                    testCase.addChild(failure)
                }
                suite.addChild(testCase)
            }
            root.addChild(suite)
        }
        let document = XMLDocument(rootElement: root)
        document.characterEncoding = "UTF-8"
        document.version = "1.0"
        return document.xmlString(options: [.nodePrettyPrint]) + "\n"
    }

    private static func attribute(_ name: String, _ value: String) -> XMLNode {
        // `attribute(withName:stringValue:)` returns `Any` on Linux.
        XMLNode.attribute(withName: name, stringValue: value) as! XMLNode
    }
}
