import RMap
import Testing

@Suite("Record errors")
struct RecordErrorTests {
    @Test(
        "the description says where the record is and what is wrong",
        arguments: [
            (
                RecordError(
                    entity: "CRMPerson", identity: "id=7", attribute: "bornOn", keyPath: "born_on",
                    value: #""1990-13-01""#,
                    origin: "samples/people.json", index: 3, message: #"cannot read "1990-13-01" as a date"#),
                #"samples/people.json record 3 (CRMPerson id=7): attribute 'bornOn' (key born_on): cannot read "1990-13-01" as a date"#
            ),
            (
                RecordError(
                    entity: "CRMPerson", keyPath: "type", origin: "https://api/people", index: 0,
                    message: "unknown type 'X' for 'CRMPerson'"),
                "https://api/people record 0 (CRMPerson): key type: unknown type 'X' for 'CRMPerson'"
            ),
            (
                RecordError(
                    entity: "Membership", identity: "teamId=1, personId=2", attribute: "role", origin: "m.json",
                    index: 9, message: "bad"),
                "m.json record 9 (Membership teamId=1, personId=2): attribute 'role': bad"
            ),
            (
                RecordError(entity: "Tag", origin: "t.jsonl", index: 2, message: "expected an object, found a number"),
                "t.jsonl record 2 (Tag): expected an object, found a number"
            ),
        ])
    func description(error: RecordError, text: String) {
        #expect(error.description == text)
    }
}
