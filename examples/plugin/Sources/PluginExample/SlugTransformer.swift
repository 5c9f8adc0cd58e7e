import RMap

/// A transformer plugin: `transform: slug` makes `New York` `new-york`: lower case,
/// every run of other characters than letters and digits one `-`, none at either end.
public let slugTransformer = StringTransformer { text in
    let words = text.lowercased().split { !$0.isLetter && !$0.isNumber }
    return .string(words.joined(separator: "-"))
}
