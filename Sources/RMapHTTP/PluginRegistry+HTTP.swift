public import RMap

extension PluginRegistry {
    /// Registers the `http` source (``HTTPSource``) with its option keys:
    /// `site`, `suffix`, `headers`, `auth`, `page_size`, `paginate`, `timeout`,
    /// `retries`, `concurrency`, `params`, `allow_hosts`, `max_body_bytes` and `max_pages`.
    ///
    /// ```swift
    /// let registry = PluginRegistry()
    /// registry.registerHTTP()
    /// let model = try MappingLoader(catalog: registry.catalog).load(["crm.yml"])
    /// ```
    public func registerHTTP() {
        register(source: "http", options: HTTPSource.options) { config, model in
            try HTTPSource(config: config, model: model)
        }
    }
}
