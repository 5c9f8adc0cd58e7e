import Testing

@testable import RMap

/// The progress text, driven by events and a clock the test sets: no terminal involved.
@Suite("Progress renderer")
struct ProgressRendererTests {
    /// Applies events at the given times and returns everything written, in order.
    static func render(_ style: ProgressRenderer.Style, _ events: [(Duration, ProgressEvent)]) -> [String] {
        var renderer = ProgressRenderer(style: style)
        return events.map { time, event in renderer.apply(event, at: time) }
    }

    static let clear = ProgressRenderer.clearLine

    @Test(
        "lines: a line per stage and one per entity when its fetch ends (with the records nested in it), never one per file"
    )
    func lines() {
        let written = Self.render(
            .lines,
            [
                (.zero, .stageStarted("fetch")),
                (.zero, .expected(entity: "Person", amount: 3072, unit: .bytes)),
                (.milliseconds(100), .mapped(entity: "Person", records: 40)),
                (.milliseconds(100), .fetched(entity: "Person", origin: "people/1.json")),
                (.milliseconds(100), .advanced(entity: "Person", amount: 1024, unit: .bytes)),
                (.milliseconds(400), .mapped(entity: "Person", records: 120)),
                (.milliseconds(400), .fetched(entity: "Person", origin: "people/2.json")),
                (.milliseconds(400), .advanced(entity: "Person", amount: 2048, unit: .bytes)),
                (.milliseconds(400), .entityFetched("Person")),
                (.milliseconds(500), .fetched(entity: "Issue", origin: "https://api.example.com/issues")),
                (.milliseconds(500), .mapped(entity: "Issue", records: 30)),
                (.milliseconds(500), .nested(entity: "User", within: "Issue", records: 10)),
                (.milliseconds(500), .nested(entity: "Label", within: "Issue", records: 1)),
                (.milliseconds(500), .nested(entity: "User", within: "Issue", records: 30)),
                (.milliseconds(500), .advanced(entity: "Issue", amount: 1, unit: .pages)),
                (.seconds(2), .entityFetched("Issue")),
                (.seconds(2), .note("retrying GET https://api.example.com/issues in 1s (HTTP 503)")),
                (.seconds(2), .stageFinished("fetch")),
            ])
        #expect(
            written.joined() == """
                fetch: started
                fetched Person: 120 records from 2 files (3.0 KiB) in 0.40s, 300 records/s
                fetched Issue: 30 records and 30 nested User and 1 nested Label from https://api.example.com/issues in 1.50s, 20 records/s
                retrying GET https://api.example.com/issues in 1s (HTTP 503)
                fetch: done in 2.00s

                """)
    }

    @Test("bar: percent, amounts, rate and ETA from the work the source announced")
    func bar() {
        var renderer = ProgressRenderer(style: .bar(color: false))
        #expect(renderer.apply(.stageStarted("fetch"), at: .zero) == Self.clear + "fetch  0.00s")
        // Too soon after the last draw to be drawn on its own.
        #expect(renderer.apply(.expected(entity: "Person", amount: 4_000_000, unit: .bytes), at: .zero) == "")
        let quarter = renderer.apply(.advanced(entity: "Person", amount: 1_000_000, unit: .bytes), at: .seconds(1))
        #expect(quarter == Self.clear + "fetch [=====>              ]  25%  976.6 KiB of 3.8 MiB, ETA 3s")
        #expect(renderer.apply(.mapped(entity: "Person", records: 5000), at: .seconds(1)) == "")
        #expect(
            renderer.redraw(at: .seconds(2))
                == Self.clear + "fetch [=====>              ]  25%  976.6 KiB of 3.8 MiB, 2,500 records/s, ETA 6s")
    }

    @Test("bar: pages announced by a server, summed over the entities of the stage")
    func pages() {
        var renderer = ProgressRenderer(style: .bar(color: false))
        renderer.apply(.stageStarted("fetch"), at: .zero)
        renderer.apply(.expected(entity: "Issue", amount: 8, unit: .pages), at: .zero)
        renderer.apply(.expected(entity: "Label", amount: 2, unit: .pages), at: .zero)
        renderer.apply(.advanced(entity: "Label", amount: 2, unit: .pages), at: .milliseconds(10))
        let text = renderer.apply(.advanced(entity: "Issue", amount: 3, unit: .pages), at: .seconds(5))
        #expect(text == Self.clear + "fetch [==========>         ]  50%  5 of 10 pages, ETA 5s")
    }

    @Test("bar: records/s and time when no source says how much is coming")
    func unknownTotal() {
        var renderer = ProgressRenderer(style: .bar(color: false))
        renderer.apply(.stageStarted("fetch"), at: .zero)
        let text = renderer.apply(.mapped(entity: "Event", records: 1500), at: .seconds(2))
        #expect(text == Self.clear + "fetch  1,500 records, 750 records/s, 2.00s")
        #expect(renderer.apply(.stageStarted("connect"), at: .seconds(3)) == Self.clear + "connect  0.00s")
        #expect(renderer.redraw(at: .milliseconds(3400)) == Self.clear + "connect  0.40s")
    }

    @Test("bar: at most one redraw per interval; stage lines, entity lines and notes always show")
    func throttle() {
        var renderer = ProgressRenderer(style: .bar(color: false))
        renderer.apply(.stageStarted("fetch"), at: .zero)
        #expect(renderer.apply(.mapped(entity: "A", records: 1), at: .milliseconds(99)) == "")
        #expect(renderer.apply(.mapped(entity: "A", records: 2), at: .milliseconds(100)) != "")
        #expect(renderer.apply(.mapped(entity: "A", records: 3), at: .milliseconds(150)) == "")
        let note = renderer.apply(.note("slow server"), at: .milliseconds(160))
        #expect(note == Self.clear + "slow server\n" + Self.clear + "fetch  3 records, 19 records/s, 0.16s")
        let entity = renderer.apply(.entityFetched("A"), at: .milliseconds(170))
        #expect(entity.hasPrefix(Self.clear + "fetched A: 3 records in 0.07s, 42 records/s\n" + Self.clear + "fetch "))
        #expect(
            renderer.apply(.stageFinished("fetch"), at: .milliseconds(180)) == Self.clear + "fetch: done in 0.18s\n")
    }

    @Test("finish erases the status line and nothing is drawn after it")
    func finish() {
        var renderer = ProgressRenderer(style: .bar(color: false))
        renderer.apply(.stageStarted("persist"), at: .zero)
        #expect(renderer.finish() == Self.clear)
        #expect(renderer.redraw(at: .seconds(1)) == "")
        #expect(renderer.finish() == "")
    }

    @Test("the done part of the bar is green only in colour")
    func color() {
        let events: [(Duration, ProgressEvent)] = [
            (.zero, .stageStarted("fetch")), (.zero, .expected(entity: "A", amount: 10, unit: .bytes)),
            (.seconds(1), .advanced(entity: "A", amount: 10, unit: .bytes)),
        ]
        let colored = Self.render(.bar(color: true), events).joined()
        #expect(colored.contains("fetch [\u{1B}[32m====================\u{1B}[0m] 100%  10 B of 10 B"))
        #expect(!Self.render(.bar(color: false), events).joined().contains("\u{1B}[3"))
    }

    @Test(
        "numbers, sizes and durations",
        arguments: [
            (ProgressText.count(1_234_567), "1,234,567"), (ProgressText.count(999), "999"),
            (ProgressText.bytes(512), "512 B"), (ProgressText.bytes(5_500), "5.4 KiB"),
            (ProgressText.bytes(184_549_376), "176.0 MiB"), (ProgressText.duration(.milliseconds(40)), "0.04s"),
            (ProgressText.duration(.milliseconds(2_340)), "2.34s"), (ProgressText.duration(.seconds(65)), "1m05s"),
            (ProgressText.estimate(.milliseconds(2_100)), "3s"),
        ])
    func text(shown: String, expected: String) {
        #expect(shown == expected)
    }
}
