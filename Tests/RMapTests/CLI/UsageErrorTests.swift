import Testing

@Suite("rmap usage errors")
struct UsageErrorTests {
    static let runUsage =
        "Usage: rmap run <mapping> ... [--store <url>] [--strict] [--dry-run] [--json] [--quiet] [--jobs <n>] [--only <entity> ...] [--full] [--singer] [--record <dir>] [--replay <dir>]\n  See 'rmap help run' for more information.\n"
    static let inspectUsage =
        "Usage: rmap inspect <mapping> ... [--format <format>]\n  See 'rmap help inspect' for more information.\n"
    static let testUsage =
        "Usage: rmap test <test> ... [--format <format>]\n  See 'rmap help test' for more information.\n"
    static let rootUsage = "Usage: rmap <subcommand>\n  See 'rmap help' for more information.\n"

    static let cases: [(arguments: [String], stderr: String)] = [
        (["run", "--foo", "crm.yml"], "Error: unknown option '--foo'\n" + runUsage),
        (["run", "crm.yml", "-x"], "Error: unknown option '-x'\n" + runUsage),
        (["run", "crm.yml", "--strict=yes"], "Error: the option '--strict' takes no value\n" + runUsage),
        (
            ["run", "crm.yml", "--jobs", "0"],
            "Error: the value '0' is invalid for '--jobs <n>': expected a whole number of at least 1\n" + runUsage
        ),
        (
            ["run", "crm.yml", "--jobs=many"],
            "Error: the value 'many' is invalid for '--jobs <n>': expected a whole number of at least 1\n" + runUsage
        ),
        (["run", "crm.yml", "--jobs", "--strict"], "Error: missing value for '--jobs <n>'\n" + runUsage),
        (
            ["run", "crm.yml", "--only", "CRMPerson,,CRMProject"],
            "Error: the value 'CRMPerson,,CRMProject' is invalid for '--only <entity>': expected entity names separated by commas\n"
                + runUsage
        ),
        (
            ["run", "crm.yml", "--store", "ftp://host/x"],
            "Error: the value 'ftp://host/x' is invalid for '--store <url>': unknown store 'ftp:'; use sqlite:PATH, postgres://..., json:PATH or memory:\n"
                + runUsage
        ),
        (
            ["run", "crm.yml", "--store", "sqlit:x.db"],
            "Error: the value 'sqlit:x.db' is invalid for '--store <url>': unknown store 'sqlit:' (did you mean 'sqlite'?); use sqlite:PATH, postgres://..., json:PATH or memory:\n"
                + runUsage
        ),
        (
            ["run", "crm.yml", "--store=json:"],
            "Error: the value 'json:' is invalid for '--store <url>': 'json:' needs a path, e.g. 'json:data/rmap.json'\n"
                + runUsage
        ),
        (
            ["run", "crm.yml", "--store", "memory:x"],
            "Error: the value 'memory:x' is invalid for '--store <url>': 'memory:' takes nothing after the colon\n"
                + runUsage
        ),
        (
            ["run", "crm.yml", "--store", "postgres:db"],
            "Error: the value 'postgres:db' is invalid for '--store <url>': a PostgreSQL store is a URL: 'postgres://user@host/database'\n"
                + runUsage
        ),
        (["run"], "Error: missing expected argument '<mapping> ...'\n" + runUsage),
        (
            ["inspect", "crm.yml", "--fromat", "dot"],
            "Error: unknown option '--fromat' (did you mean '--format'?)\n" + inspectUsage
        ),
        (["inspect", "crm.yml", "--format"], "Error: missing value for '--format <format>'\n" + inspectUsage),
        (
            ["inspect", "crm.yml", "--format", "xml"],
            "Error: the value 'xml' is invalid for '--format <format>': expected one of text, json, mermaid, dot\n"
                + inspectUsage
        ),
        (
            ["inspect", "crm.yml", "--format=mermiad"],
            "Error: the value 'mermiad' is invalid for '--format <format>': expected one of text, json, mermaid, dot (did you mean 'mermaid'?)\n"
                + inspectUsage
        ),
        (
            ["plugins", "extra"],
            "Error: unexpected argument 'extra'\nUsage: rmap plugins\n  See 'rmap help plugins' for more information.\n"
        ),
        (
            ["schema", "crm.yml"],
            "Error: unexpected argument 'crm.yml'\nUsage: rmap schema\n  See 'rmap help schema' for more information.\n"
        ),
        (["test"], "Error: missing expected argument '<test> ...'\n" + testUsage),
        (
            ["test", "t.yml", "--format", "xml"],
            "Error: the value 'xml' is invalid for '--format <format>': expected one of text, junit\n" + testUsage
        ),
        (["rn", "crm.yml"], "Error: unknown command 'rn' (did you mean 'run'?)\n" + rootUsage),
        (["frobnicate"], "Error: unknown command 'frobnicate'\n" + rootUsage),
        (["help", "valdiate"], "Error: unknown command 'valdiate' (did you mean 'validate'?)\n" + rootUsage),
        (["help", "run", "extra"], "Error: unexpected argument 'extra'\n" + rootUsage),
        (["--verison"], "Error: unknown option '--verison' (did you mean '--version'?)\n" + rootUsage),
        (["--version", "run"], "Error: unexpected argument 'run'\n" + rootUsage),
    ]

    @Test("usage errors go to stderr with the usage line and exit 2", arguments: cases)
    func usageError(arguments: [String], stderr: String) async throws {
        let result = try await CLIRunner.run(arguments)
        #expect(result.stderr == stderr)
        #expect(result.stdout == "")
        #expect(result.status == 2)
    }
}
