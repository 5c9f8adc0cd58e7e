/// The `exec` transformer (`transform: { exec: [python3, upcase.py] }`): one
/// program per run and attribute transforms every value of that attribute.
///
/// Once every payload is mapped (before connect), rmap writes each object's
/// value (after the named transformers; `null` and absent values are left
/// out) to the program's standard input, one JSON value a line, and reads
/// one JSON value a line back, in the same order, while it writes. An answer
/// goes through the attribute's type rules as a payload value does; one that
/// does not fit is a record error naming the program and the output line, and
/// the object is rejected (removed from the graph). Fewer or more answers than
/// values, a line that is not JSON, or a non-zero exit fail the run.
///
/// ```
/// stdin:  "ada lovelace"      stdout: "ADA LOVELACE"
///         "grace hopper"              "GRACE HOPPER"
/// ```
public struct ExecTransformer: Sendable {
    /// The keys of a `transform:` item that runs a program.
    public static let options = ["exec", "env", "timeout"]

    /// How many values are written to the program at a time (between two takes of the graph's lock).
    static let batchSize = 512

    /// The program.
    public let command: ExecCommand
    /// The attribute's name.
    public let attribute: String
    /// The root entity whose table holds the objects.
    let root: Int
    /// The family members whose attribute runs this program.
    let types: Set<Int>

    /// The exec transformers of a schema: one per root entity, attribute and program.
    static func all(in schema: GraphSchema) -> [ExecTransformer] {
        var found: [ExecTransformer] = []
        for type in schema.types {
            for attribute in type.mapping.attributes {
                guard let command = attribute.execTransform else { continue }
                if let index = found.firstIndex(where: {
                    $0.root == type.rootIndex && $0.attribute == attribute.name && $0.command == command
                }) {
                    found[index] = ExecTransformer(
                        command: command, attribute: attribute.name, root: type.rootIndex,
                        types: found[index].types.union([type.index]))
                } else {
                    found.append(
                        ExecTransformer(
                            command: command, attribute: attribute.name, root: type.rootIndex, types: [type.index]))
                }
            }
        }
        return found
    }
}
