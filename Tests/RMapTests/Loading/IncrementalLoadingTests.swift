import RMap
import Testing

/// `incremental:` as the loader reads and checks it.
@Suite("Incremental mapping keys")
struct IncrementalLoadingTests {
    static let invalid: [InvalidMapping] = [
        InvalidMapping(
            "unknown cursor attribute",
            "rmap: 1\nentities:\n  P:\n    incremental: {cursor: updatedAd, param: updated_since}\n    attributes: {id: int, updatedAt: datetime}\n",
            "mappings/crm.yml:4:27: unknown attribute 'updatedAd' in 'incremental' of 'P' (did you mean 'updatedAt'?)"),
        InvalidMapping(
            "unknown key, bad lag",
            "rmap: 1\nentities:\n  P:\n    incremental: {cursor: updatedAt, param: since, lagg: 5m}\n    attributes: {id: int, updatedAt: datetime}\n",
            "mappings/crm.yml:4:52: unknown key 'lagg' in 'incremental' (did you mean 'lag'?)"),
        InvalidMapping(
            "lag of a duration",
            "rmap: 1\nentities:\n  P:\n    incremental: {cursor: updatedAt, param: since, lag: soon}\n    attributes: {id: int, updatedAt: datetime}\n",
            "mappings/crm.yml:4:57: 'lag' is a duration such as 30s, 5m, 2h or 1d, found 'soon'"),
        InvalidMapping(
            "param missing",
            "rmap: 1\nentities:\n  P:\n    incremental: {cursor: updatedAt}\n    attributes: {id: int, updatedAt: datetime}\n",
            "mappings/crm.yml:4:18: 'incremental' needs 'cursor' (an attribute) and 'param' (a query parameter)"),
        InvalidMapping(
            "lag on an integer cursor",
            "rmap: 1\nentities:\n  P:\n    incremental: {cursor: id, param: since_id, lag: 5m}\n    attributes: {id: int}\n",
            "mappings/crm.yml:4:27: 'lag' and 'format' of 'incremental' need a date or datetime cursor; 'id' of 'P' is int"
        ),
    ]

    @Test(arguments: invalid)
    func problems(_ mapping: InvalidMapping) {
        #expect(LoaderHarness.issues(mapping.yaml) == mapping.issues)
    }

    @Test("cursor, param, initial, lag and format are read; lag in seconds")
    func reads() throws {
        let model = try LoaderHarness.load(
            "rmap: 1\nentities:\n  P:\n    incremental: {cursor: updatedAt, param: updated_since, initial: '2024-01-01', lag: 2h, format: '%Y%m%d'}\n    attributes: {id: int, updatedAt: datetime}\n"
        )
        #expect(
            model.entity(named: "P")?.incremental
                == IncrementalSync(
                    cursor: "updatedAt", param: "updated_since", initial: "2024-01-01", lag: 7200, format: "%Y%m%d"))
    }

    @Test("the parameter is the stored cursor less the lag, in the format; initial when none is stored")
    func parameter() throws {
        let model = try LoaderHarness.load(
            "rmap: 1\nentities:\n  P:\n    incremental: {cursor: updatedAt, param: since, initial: '0', lag: 90s, format: '%Y-%m-%d %H:%M:%S'}\n    attributes: {id: int, updatedAt: datetime}\n  Q:\n    incremental: {cursor: id, param: since_id}\n    attributes: {id: int}\n"
        )
        let p = try #require(model.entity(named: "P"))
        let q = try #require(model.entity(named: "Q"))
        let stored = IncrementalCursors(stored: [
            "P": RunStateEntry(scope: "cursor", key: "P", value: .string("2024-03-01T10:00:30.500Z")),
            "Q": RunStateEntry(scope: "cursor", key: "Q", value: .number("41")),
        ])
        #expect(stored.parameter(for: p)! == ("since", "2024-03-01 09:59:00"))
        #expect(stored.parameter(for: q)! == ("since_id", "41"))
        #expect(IncrementalCursors().parameter(for: p)! == ("since", "0"))
        #expect(IncrementalCursors().parameter(for: q) == nil)
        #expect(stored.parameter(for: p, fill: ["personId": .int(3)])! == ("since", "0"))
    }
}
