import RMap

/// The paging a `--url`'s query shows, as the `http` source's keys: `limit=10&offset=20` is
/// offset paging (`page_size: 10`), `page=2&per_page=30` page paging (`paginate: page,
/// page_size: 30`), Django's `page_size=50` the same with `size_param: page_size`. The paging
/// parameters then leave `params:`, where they would freeze every request on one page.
struct URLPaging {
    /// The source's paging keys as YAML pairs, in order; empty when the query shows no paging.
    private(set) var pairs: [(String, String)] = []
    /// The query's other parameters, for `params:`.
    private(set) var rest: [(name: String, value: String?)]

    init(_ parameters: [(name: String, value: String?)]) {
        func number(_ name: String) -> Int? {
            parameters.first { $0.name == name }?.value.flatMap { Int($0) }
        }
        let names = Set(parameters.map(\.name))
        var paging: Set<String> = []
        if let limit = number("limit") {
            pairs = [("page_size", String(limit))]
            paging = ["limit", "offset"]
        } else if !names.isDisjoint(with: ["page", "per_page", "page_size"]) {
            pairs = [("paginate", "page")]
            if let size = number("per_page") {
                pairs.append(("page_size", String(size)))
            } else if let size = number("page_size") {
                pairs += [("page_size", String(size)), ("size_param", "page_size")]
            }
            paging = ["page", "per_page", "page_size"]
        }
        rest = parameters.filter { !paging.contains($0.name) }
    }
}
