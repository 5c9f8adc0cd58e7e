/// The connect stage: resolves every relationship's `connect:` rule on a
/// mapped graph, filling relationships and their inverses.
///
/// Semantics are those of RestKit's `RKConnectionDescription`, made declarative:
///
/// - **Foreign key**: the destinations whose attributes equal the source's;
///   several pairs must all match, and an array value is an OR over its
///   members (a to-many links every match, in the array's order).
/// - **Key path**: evaluated on the source through its relationships; the
///   value reached is the destination's identity (an array of values for a
///   composite identity), or the destinations themselves when the path ends on
///   a relationship. Paths are resolved after the relationships they go through.
/// - **Equality** compares numbers by value: `int 1`, `decimal 1.0`,
///   `double 1.0` and the string `"1"` match one another; other text
///   matches only equal text (`"01"` is not `1`).
/// - **Null and missing**: a null value (or an empty array) connects to
///   nothing and clears the relationship; a value the payload did not carry
///   leaves the relationship as it was, as a missing key leaves an attribute.
/// - **`when`** selects sources: the others keep their relationship unchanged.
///   **`where`** and `include_subentities: false` select destinations; a
///   value whose only matches they exclude is not dangling.
/// - **Conditions** (`eq`, `in`, `ne`, `lt`, `le`, `gt`, `ge`, `null`) compare
///   scalars: numbers numerically, text, dates and datetimes in their order;
///   a null or missing value meets only `null: true`, and an array value
///   meets only `null: false` and `ne` (no "contains").
/// - A to-one matching several objects is a ``ConnectError`` and stays empty;
///   a value matching nothing is a ``DanglingReference``.
/// - Relationships with an inverse keep it consistent: a link made adds the
///   source to the destination's inverse, a link replaced removes it, and a
///   to-one inverse claimed by a new source lets go of the previous one (the
///   last source wins, as Core Data's inverses behave). Nested relationships
///   are left as mapped; only their inverses are filled.
///
/// ```swift
/// let report = Connector(schema: graph.schema).connect(graph)
/// for reference in report.dangling { print(reference) }
/// ```
///
/// - Complexity: O(objects + references): destinations are found through hash
///   indexes, each built once per destination, key and filter.
public struct Connector: Sendable {
    /// The schema of the graphs this connector connects.
    public let schema: GraphSchema
    private let steps: [ConnectionStep]

    /// Prepares the connections of `schema`, ordered so that key paths follow the relationships they read.
    public init(schema: GraphSchema) {
        self.schema = schema
        steps = ConnectionOrder.steps(of: schema)
    }

    /// Resolves every connection of every object; fills relationships and inverses.
    ///
    /// - Parameter graph: a graph of this connector's schema.
    /// - Returns: the links made, the dangling references and the to-one errors.
    public func connect(_ graph: ObjectGraph) -> ConnectReport {
        precondition(graph.schema === schema, "the graph follows another schema than the connector's")
        let run = ConnectRun(graph: graph)
        run.linkNestedInverses()
        for step in steps { run.resolve(step) }
        return run.result
    }

    /// The references into the tables of `roots` (root entity positions) that no object of
    /// `graph` answers, found without linking anything: the keys to look for in the store. A key
    /// path through a relationship that a connection sets reaches nothing yet, so only foreign
    /// keys and paths through nested relationships count.
    ///
    /// - Complexity: O(objects + references) of those connections, as ``connect(_:)``.
    public func unresolved(_ graph: ObjectGraph, roots: Set<Int>) -> [DanglingReference] {
        precondition(graph.schema === schema, "the graph follows another schema than the connector's")
        let run = ConnectRun(graph: graph, linking: false)
        for step in steps where roots.contains(step.destination.rootIndex) { run.resolve(step) }
        return run.result.dangling
    }
}
