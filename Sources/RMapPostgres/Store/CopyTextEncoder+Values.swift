import RMap

extension CopyTextEncoder {
    /// Appends one row of values in their stored text forms (``PostgresValueText``), without an
    /// array of texts for the row.
    mutating func append(values row: [Value]) {
        for (index, value) in row.enumerated() {
            append(field: PostgresValueText.encode(value), first: index == 0)
        }
        endRow()
    }
}
