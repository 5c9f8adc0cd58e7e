/// "Did you mean" suggestions by edit distance, for mapping files and the command line alike.
public enum Suggestion {
    /// The candidate closest to `word`, when it is close enough to be a likely typo: at most
    /// a third of the shorter word's letters (at least one) differ, and not every letter.
    public static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let lowered = word.lowercased()
        var best: (String, Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, candidate.lowercased())
            if best.map({ distance < $0.1 }) ?? true { best = (candidate, distance) }
        }
        guard let (candidate, distance) = best else { return nil }
        let shorter = min(word.count, candidate.count)
        return distance <= max(1, shorter / 3) && distance < shorter ? candidate : nil
    }

    /// The candidate another name stands for (`int` for `integer`, in any case, or for a likely typo
    /// of it, `intger`), else the closest candidate.
    ///
    /// ```swift
    /// Suggestion.closest(to: "integer", in: ["int", "string"], synonyms: ["integer": "int"])  // "int"
    /// ```
    public static func closest(
        to word: String, in candidates: some Sequence<String>, synonyms: [String: String]
    ) -> String? {
        let candidates = Array(candidates)
        let known = synonyms.filter { candidates.contains($0.value) }
        guard let found = closest(to: word, in: candidates + known.keys) else { return nil }
        return known[found] ?? found
    }

    /// ` (did you mean 'x'?)`, or an empty string.
    public static func hint(for word: String, in candidates: some Sequence<String>) -> String {
        hint(closest(to: word, in: candidates))
    }

    /// ` (did you mean 'x'?)` for a synonym or a likely typo, or an empty string.
    public static func hint(for word: String, in candidates: some Sequence<String>, synonyms: [String: String])
        -> String
    {
        hint(closest(to: word, in: candidates, synonyms: synonyms))
    }

    private static func hint(_ suggestion: String?) -> String {
        suggestion.map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Damerau-Levenshtein distance (optimal string alignment): a swap of two letters counts once.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
