/// A plain-text table: columns padded to their widest cell, the first left-aligned and the
/// others right-aligned unless named in `leftAligned`, two spaces apart.
enum TextTable {
    /// The table's lines, each ending in a newline.
    static func render(_ rows: [[String]], leftAligned: Set<Int> = [0]) -> String {
        let count = rows.map(\.count).max() ?? 0
        let widths = (0..<count).map { column in
            rows.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
        }
        var text = ""
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return leftAligned.contains(column) ? cell + padding : padding + cell
            }
            text += cells.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
        }
        return text
    }
}

extension String {
    /// The text without spaces at its end.
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
