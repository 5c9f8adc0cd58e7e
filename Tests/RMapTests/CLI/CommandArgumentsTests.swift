import Foundation
import Testing

@testable import RMapCommandLine

/// Every command's arguments parsed in the test process, through the parser and the options'
/// declarations (no binary): defaults, each option, and the usage errors with their exact
/// messages. The binary's suites (`UsageErrorTests`, `HelpTests`) check the same end to end.
@Suite("rmap arguments parsed in process")
struct CommandArgumentsTests {
    /// The command `arguments` make, parsed as the command line parses them.
    private func parse<Command: CLICommand>(_: Command.Type, _ arguments: [String]) throws(UsageError) -> Command {
        try Command(ArgumentParser(spec: Command.spec).parse(arguments))
    }

    /// The usage error `arguments` give, which must show the command's usage line.
    private func usageError<Command: CLICommand>(_: Command.Type, _ arguments: [String]) -> String? {
        do {
            _ = try parse(Command.self, arguments)
            return nil
        } catch {
            #expect(error.report.contains("\nUsage: \(Command.spec.usage)\n  See 'rmap help \(Command.spec.name)'"))
            return error.message
        }
    }

    // MARK: - run

    @Test("run: defaults when only the mapping files are given")
    func runDefaults() throws {
        let run = try parse(RunCommand.self, ["a.yml", "b.yml"])
        #expect(run.mappings == ["a.yml", "b.yml"])
        #expect(run.store == nil)
        #expect(!run.strict && !run.dryRun && !run.json && !run.quiet && !run.full && !run.singer)
        #expect(run.jobs == nil)
        #expect(run.only.isEmpty)
    }

    @Test("run: every flag and value")
    func runOptions() throws {
        let run = try parse(
            RunCommand.self,
            [
                "crm.yml", "--store=json:out.json", "--strict", "--dry-run", "--json", "--quiet", "--jobs", "7",
                "--only", "CRMPerson, CRMProject", "--only=CRMPerson", "--only", "CRMTask", "--full", "--singer",
            ])
        #expect(run.store?.plugin == "json")
        #expect(run.store?["path"]?.scalar?.text == "out.json")
        #expect(run.strict && run.dryRun && run.json && run.quiet && run.full && run.singer)
        #expect(run.jobs == 7)
        #expect(run.only == ["CRMPerson", "CRMProject", "CRMTask"])
    }

    @Test("run: the last of a repeated single-valued option counts; '--' ends options")
    func runRepeatsAndDoubleDash() throws {
        let run = try parse(RunCommand.self, ["--jobs", "2", "--jobs=3", "--", "--strict", "-"])
        #expect(run.jobs == 3)
        #expect(!run.strict)
        #expect(run.mappings == ["--strict", "-"])
    }

    @Test(
        "run: usage errors",
        arguments: [
            (["crm.yml", "--foo"], "unknown option '--foo'"),
            (["crm.yml", "--stric"], "unknown option '--stric' (did you mean '--strict'?)"),
            (["crm.yml", "-x"], "unknown option '-x'"),
            (["crm.yml", "--strict=yes"], "the option '--strict' takes no value"),
            (["crm.yml", "--jobs"], "missing value for '--jobs <n>'"),
            (["crm.yml", "--jobs", "--strict"], "missing value for '--jobs <n>'"),
            (
                ["crm.yml", "--jobs", "0"],
                "the value '0' is invalid for '--jobs <n>': expected a whole number of at least 1"
            ),
            (
                ["crm.yml", "--only", "A,,B"],
                "the value 'A,,B' is invalid for '--only <entity>': expected entity names separated by commas"
            ),
            (
                ["crm.yml", "--store", "sqlit:x.db"],
                "the value 'sqlit:x.db' is invalid for '--store <url>': unknown store 'sqlit:' (did you mean 'sqlite'?); use sqlite:PATH, postgres://..., json:PATH or memory:"
            ),
            ([], "missing expected argument '<mapping> ...'"),
        ])
    func runErrors(arguments: [String], message: String) {
        #expect(usageError(RunCommand.self, arguments) == message)
    }

    // MARK: - push

    @Test("push: defaults, then every option")
    func push() throws {
        let plain = try parse(PushCommand.self, ["crm.yml"])
        #expect(plain.mappings == ["crm.yml"] && plain.store == nil && !plain.dryRun && plain.jobs == nil)
        let given = try parse(PushCommand.self, ["crm.yml", "--store", "memory:", "--dry-run", "--jobs=2"])
        #expect(given.store?.plugin == "memory")
        #expect(given.dryRun)
        #expect(given.jobs == 2)
        #expect(
            usageError(PushCommand.self, ["crm.yml", "--jobs", "x"])?.hasPrefix("the value 'x' is invalid") == true)
        #expect(usageError(PushCommand.self, ["crm.yml", "--json"]) == "unknown option '--json'")
    }

    // MARK: - diff and status: the store-reading group

    @Test(
        "diff and status: defaults, then --store and --json",
        arguments: [(DiffCommand.spec, DiffCommand.options), (StatusCommand.spec, StatusCommand.options)])
    func storeReading(spec: CommandSpec, group: StoreReadingOptions.Group) throws {
        let plain = try group.read(ArgumentParser(spec: spec).parse(["crm.yml"]))
        #expect(plain.mappings == ["crm.yml"] && plain.store == nil && !plain.json)
        let given = try group.read(ArgumentParser(spec: spec).parse(["crm.yml", "--json", "--store", "data.sqlite"]))
        #expect(given.json)
        #expect(given.store?.plugin == "sqlite")
        #expect(given.store?["path"]?.scalar?.text == "data.sqlite")
    }

    @Test("diff and status: their usage errors")
    func storeReadingErrors() {
        #expect(
            usageError(DiffCommand.self, ["crm.yml", "--store", "memory:x"])
                == "the value 'memory:x' is invalid for '--store <url>': 'memory:' takes nothing after the colon")
        #expect(usageError(StatusCommand.self, ["crm.yml", "--json=1"]) == "the option '--json' takes no value")
        #expect(usageError(StatusCommand.self, ["--store"]) == "missing value for '--store <url>'")
    }

    // MARK: - validate and inspect

    @Test(
        "validate: --format, else json for --json, else text",
        arguments: [
            ([String](), ValidateCommand.Format.text), (["--json"], .json), (["--format", "github"], .github),
            (["--json", "--format=text"], .text),
        ])
    func validateFormat(options: [String], format: ValidateCommand.Format) throws {
        let validate = try parse(ValidateCommand.self, ["crm.yml"] + options)
        #expect(validate.format == format)
        #expect(validate.mappings == ["crm.yml"])
    }

    @Test("validate and inspect: a format that is no choice")
    func formatErrors() {
        #expect(
            usageError(ValidateCommand.self, ["crm.yml", "--format", "githb"])
                == "the value 'githb' is invalid for '--format <format>': expected one of text, json, github (did you mean 'github'?)"
        )
        #expect(
            usageError(InspectCommand.self, ["crm.yml", "--format", "xml"])
                == "the value 'xml' is invalid for '--format <format>': expected one of text, json, mermaid, dot")
        #expect(
            usageError(InspectCommand.self, ["crm.yml", "--fromat", "dot"])
                == "unknown option '--fromat' (did you mean '--format'?)")
    }

    @Test("inspect: text by default, else --format")
    func inspectFormat() throws {
        #expect(try parse(InspectCommand.self, ["crm.yml"]).format == .text)
        #expect(try parse(InspectCommand.self, ["crm.yml", "--format=mermaid"]).format == .mermaid)
        #expect(try parse(InspectCommand.self, ["crm.yml", "--format", "dot"]).format == .dot)
    }

    // MARK: - init and plugins

    @Test("init: payloads, --url repeated, -o and --output, --prefix")
    func initOptions() throws {
        let plain = try parse(InitCommand.self, ["people.json"])
        #expect(plain.payloads == ["people.json"] && plain.urls.isEmpty && plain.output == nil && plain.prefix == "")
        let given = try parse(
            InitCommand.self,
            ["--url", "http://a.test/people", "--url=https://b.test/x", "-o", "crm.yml", "--prefix", "CRM"])
        #expect(given.payloads.isEmpty)
        #expect(given.urls.map(\.absoluteString) == ["http://a.test/people", "https://b.test/x"])
        #expect(given.output == "crm.yml")
        #expect(given.prefix == "CRM")
        #expect(try parse(InitCommand.self, ["p.json", "--output=out.yml", "-o", "last.yml"]).output == "last.yml")
    }

    @Test("init: usage errors")
    func initErrors() {
        #expect(usageError(InitCommand.self, []) == "missing expected argument '<payload> ...' (or '--url <url>')")
        #expect(
            usageError(InitCommand.self, ["--url", "ftp://a.test/x"])
                == "the value 'ftp://a.test/x' is invalid for '--url <url>': expected an http(s) URL")
        #expect(usageError(InitCommand.self, ["p.json", "-o"]) == "missing value for '--output <file>'")
        #expect(usageError(InitCommand.self, ["p.json", "-ocrm.yml"]) == "unknown option '-ocrm.yml'")
    }

    @Test("plugins: no arguments")
    func plugins() throws {
        _ = try parse(PluginsCommand.self, [])
        #expect(usageError(PluginsCommand.self, ["extra"]) == "unexpected argument 'extra'")
        #expect(usageError(PluginsCommand.self, ["--json"]) == "unknown option '--json'")
    }

    @Test("schema: no arguments")
    func schema() throws {
        _ = try parse(SchemaCommand.self, [])
        #expect(usageError(SchemaCommand.self, ["extra"]) == "unexpected argument 'extra'")
        #expect(usageError(SchemaCommand.self, ["--format", "json"]) == "unknown option '--format'")
    }

    @Test("test: test files and --format")
    func test() throws {
        let command = try parse(TestCommand.self, ["a.yml", "b.yml", "--format", "junit"])
        #expect(command.files == ["a.yml", "b.yml"] && command.format == .junit)
        #expect(try parse(TestCommand.self, ["a.yml"]).format == .text)
        #expect(usageError(TestCommand.self, ["--format", "junit"]) == "missing expected argument '<test> ...'")
    }

    // MARK: - help and usage come from the declarations

    @Test(
        "each command's usage line and help list exactly its declared options",
        arguments: CommandLineInterface.commands.map(\.spec.name))
    func helpFromDeclarations(command: String) throws {
        let spec = try #require(CommandLineInterface.commands.first { $0.spec.name == command }).spec
        let help = HelpText.command(spec)
        let optionsSection = help.components(separatedBy: "OPTIONS:\n")[1].components(separatedBy: "\n\n")[0]
        let listed = optionsSection.split(separator: "\n").filter { $0.hasPrefix("  -") }.map {
            $0.dropFirst(2).components(separatedBy: "  ")[0]
        }
        let declared = spec.options.map(\.spec)
        #expect(listed == declared.map { $0.label + ($0.repeats ? " ..." : "") } + ["-h, --help"])
        for option in declared {
            #expect(spec.usage.contains("[\(option.synopsis)"))
            for line in option.help.split(separator: "\n") { #expect(help.contains(line)) }
        }
        #expect(Set(declared.map(\.name)).count == declared.count, "an option declared twice")
    }

    @Test("a shared declaration gives every command the same name, placeholder and parsing")
    func sharedDeclarations() throws {
        let stores = [RunCommand.spec, PushCommand.spec, DiffCommand.spec, StatusCommand.spec].map {
            $0.option(named: "store")
        }
        #expect(stores.allSatisfy { $0?.synopsis == "--store <url>" && $0?.help == stores[0]?.help })
        #expect(
            try parse(RunCommand.self, ["m", "--store", "postgres://u@h/db"]).store?["url"]?.scalar?.text
                == "postgres://u@h/db")
        #expect(try parse(PushCommand.self, ["m", "--store", "postgres://u@h/db"]).store?.plugin == "postgres")
    }
}
