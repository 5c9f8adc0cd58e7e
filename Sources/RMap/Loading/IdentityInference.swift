/// The identity of an entity that declares none, inferred from its attribute names as RestKit's
/// `RKIdentificationAttributesInferredFromEntity` does: `id`, then `<element>ID` (`personID`),
/// `<element>_id` (`person_id`), `identifier` and `ID`. rmap keeps `id` first, as it has since its
/// first version; RestKit tries it after the entity's own names and `identifier`. RestKit's `URL` and
/// `url` are not tried: where a resource lives is no identity to merge by.
enum IdentityInference {
    /// The names tried for an entity whose element is `element`, in order.
    static func candidates(element: String, inflector: Inflector) -> [String] {
        let camelized = inflector.camelize(element, uppercaseFirstLetter: false)
        return ["id", "\(camelized)ID", "\(element)_id", "identifier", "ID"]
    }

    /// The first candidate that names one of `attributes`, or `nil`.
    static func attribute(element: String, attributes: [AttributeMapping], inflector: Inflector) -> String? {
        let names = Set(attributes.map(\.name))
        return candidates(element: element, inflector: inflector).first(where: names.contains)
    }
}
