/// What reads a model's objects by name: the store (``StoreReader``, with SQL) and the live
/// `Session` of `RMapHTTP` (one REST request a question). Code written against it reads either.
///
/// ```swift
/// func lastNames(in source: some ObjectReading) async throws -> [String] {
///     try await source.fetch("CRMPerson", where: ["admin": true], sort: [.ascending("lastName")], limit: 10, offset: 0)
///         .compactMap { try $0["lastName"] }
/// }
/// ```
///
/// An implementer returns the objects of the entity (its sub-entities' included) whose
/// attributes hold the conditions' values, in the order of `sort` (its own order when `nil`),
/// the window `limit`/`offset` of them.
public protocol ObjectReading: Sendable {
    /// The objects it reads.
    associatedtype Object: ReadableObject

    /// The objects of `entity` that meet `conditions`, in the order of `sort`, the window
    /// `limit`/`offset` of them (`nil`: all, none skipped).
    ///
    /// - Throws: an error naming an unknown entity or attribute, or the reader's own.
    func fetch(
        _ entity: String, where conditions: [String: QueryValue], sort: [SortKey]?, limit: Int?, offset: Int?
    ) async throws -> [Object]
}

/// An object read by name (``ObjectReading``): its entity, identity and attribute values, typed
/// reads, and its relationships followed to the objects they hold.
///
/// ```swift
/// let name: String? = try person["firstName"]
/// let projects = try await person.related("projects")
/// let owner = try await projects.first?.relatedObject("owner")
/// ```
public protocol ReadableObject: Sendable {
    /// The entity, e.g. `CRMPerson` (a sub-entity such as `CRMAdmin` when the object is one).
    var entity: String { get }
    /// The identity values.
    var identity: [Value] { get }
    /// The attribute values by attribute name.
    var values: [String: Value] { get }

    /// The attribute `name` as a Swift value; `nil` when it is null.
    ///
    /// - Throws: an error naming the entity and the attribute when it has no such attribute,
    ///   or its value is not a `T`.
    subscript<T: ValueConvertible>(name: String) -> T? { get throws }

    /// The objects of the to-many relationship `name`, in the order the reader keeps them.
    func related(_ name: String) async throws -> [Self]

    /// The object of the to-one relationship `name`; `nil` when it points at nothing.
    func relatedObject(_ name: String) async throws -> Self?
}
