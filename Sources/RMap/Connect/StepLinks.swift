/// The temporary table of the links one connection step made in a run, `_rmap_links_<n>`:
/// the source's identity (`s0`, ...), the destination's (`d0`, ...), the link's place among its
/// source's (`_pos`) and the source's last occurrence (`_seq`, so that the last source to claim
/// a to-one inverse wins).
struct StepLinks {
    /// The name of step `number`'s links table.
    static func name(_ number: Int) -> String { "_rmap_links_\(number)" }

    /// The step's number in connection order.
    let number: Int
    /// The source table's identity columns.
    let source: [ColumnLayout]
    /// The destination table's identity columns.
    let destination: [ColumnLayout]

    var name: String { Self.name(number) }

    var sourceNames: [String] { source.indices.map { "s\($0)" } }
    var destinationNames: [String] { destination.indices.map { "d\($0)" } }

    /// Every column: the source's identity, the destination's, `_pos`, `_seq`.
    var columns: [ColumnLayout] {
        zip(sourceNames, source).map { ColumnLayout(name: $0, type: $1.type) }
            + zip(destinationNames, destination).map { ColumnLayout(name: $0, type: $1.type) }
            + [ColumnLayout(name: "_pos", type: .int), ColumnLayout(name: "_seq", type: .int)]
    }

    /// `CREATE TEMPORARY TABLE`.
    func create(_ dialect: any SQLDialect.Type) -> String {
        StageSchema.table(name, columns, dialect)
    }
}
