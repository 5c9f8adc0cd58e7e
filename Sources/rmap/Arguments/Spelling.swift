/// "Did you mean" hints for misspelt commands and options.
enum Spelling {
    /// ` (did you mean 'x'?)` when a candidate is a likely typo of `word`, else an empty string.
    static func hint(for word: String, in candidates: [String]) -> String {
        let scored = candidates.map { ($0, distance(Array(word), Array($0))) }
        guard let (best, score) = scored.min(by: { $0.1 < $1.1 }) else { return "" }
        return score <= max(2, min(word.count, best.count) / 3) ? " (did you mean '\(best)'?)" : ""
    }

    /// Damerau-Levenshtein distance (optimal string alignment): a swap of two letters counts once.
    private static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
