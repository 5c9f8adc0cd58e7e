import RMap
import Testing

/// What a run that meets conflicts prints: each conflict, then how a person resolves them.
@Suite("Conflict error")
struct ConflictErrorTests {
    @Test("each conflict a line, then the ways to resolve them, naming the entities once each")
    func resolution() {
        let error = ConflictError(conflicts: [
            .init(
                entity: "CRMPerson", identity: "5", attribute: "city", base: "Oslo", local: "Local", remote: "Bergen"),
            .init(entity: "CRMPerson", identity: "6", attribute: "email", base: "a@x", local: "b@x", remote: "c@x"),
            .init(entity: "CRMTask", identity: "9", attribute: "title", base: "T", local: "L", remote: "R"),
        ])
        #expect(
            error.description == """
                3 conflict(s) between local edits and the server; nothing was written:
                  CRMPerson 5 city: base Oslo, local Local, remote Bergen
                  CRMPerson 6 email: base a@x, local b@x, remote c@x
                  CRMTask 9 title: base T, local L, remote R
                to resolve, choose a side for CRMPerson, CRMTask in the mapping and run again: 'on_conflict: local' \
                keeps the local values (rmap push sends them), 'on_conflict: remote' takes the server's; or give the \
                local row the server's value (rmap diff shows what is local)
                """)
    }
}
