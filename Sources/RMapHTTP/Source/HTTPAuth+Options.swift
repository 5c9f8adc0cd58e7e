import RMap

extension HTTPAuth {
    /// Reads the `auth` option's fixed credentials: `nil` for none, and for `oauth2`, read apart
    /// (``OAuth2Grant``).
    init?(_ reader: OptionReader) throws(PluginError) {
        guard let pairs = try reader.mapping("auth") else { return nil }
        guard pairs.count == 1, let pair = pairs.first, let scheme = pair.key.scalar?.text else {
            throw reader.fail(
                reader.options["auth"] ?? reader.options,
                "'auth' takes exactly one of basic, bearer, api_key or oauth2")
        }
        func field(_ key: String, in node: YAMLNode) throws(PluginError) -> String {
            guard node.mapping != nil else { throw reader.fail(node, "'auth.\(scheme)' must be a mapping") }
            guard let value = node[key] else { throw reader.fail(node, "'auth.\(scheme)' needs '\(key)'") }
            return try reader.text(value, "'auth.\(scheme).\(key)'")
        }
        func onlyKeys(_ allowed: Set<String>, in node: YAMLNode) throws(PluginError) {
            for key in node.mapping ?? [] where !allowed.contains(key.key.scalar?.text ?? "") {
                throw reader.fail(
                    key.key,
                    "unknown key '\(key.key.scalar?.text ?? "")' in 'auth.\(scheme)' (expected \(allowed.sorted().joined(separator: ", ")))"
                )
            }
        }
        switch scheme {
        case "basic":
            try onlyKeys(["user", "password"], in: pair.value)
            self = .basic(user: try field("user", in: pair.value), password: try field("password", in: pair.value))
        case "bearer":
            self = .bearer(try HTTPHeaders.fieldText(reader, pair.value, "'auth.bearer'"))
        case "api_key":
            try onlyKeys(["header", "param", "value"], in: pair.value)
            let value = try field("value", in: pair.value)
            switch (pair.value["header"], pair.value["param"]) {
            case (let header?, nil):
                let name = try HTTPHeaders.fieldText(reader, header, "'auth.api_key.header'")
                if let node = pair.value["value"] {
                    _ = try HTTPHeaders.fieldText(reader, node, "'auth.api_key.value'")
                }
                self = .apiKey(.header(name), value: value)
            case (nil, let param?): self = .apiKey(.param(try reader.text(param, "'auth.api_key.param'")), value: value)
            default: throw reader.fail(pair.value, "'auth.api_key' needs either 'header' or 'param' (not both)")
            }
        case "oauth2":
            return nil
        default:
            throw reader.fail(
                pair.key,
                "unknown auth scheme '\(scheme)' (expected basic, bearer, api_key or oauth2)"
                    + Suggestion.hint(for: scheme, in: ["basic", "bearer", "api_key", "oauth2"]))
        }
    }
}
