public import RMap

extension PluginRegistry {
    /// Registers the `http` source (``HTTPSource``) with its option keys: `site`, `suffix`,
    /// `headers`, `auth`, `page_size`, `paginate`, `timeout`, `retries`, `concurrency`, `params`,
    /// `allow_hosts`, `max_body_bytes`, `max_pages`, ... and the `graphql` source
    /// (``GraphQLSource``). Their requests share one budget per API origin and one OAuth2 token
    /// per client.
    ///
    /// ```swift
    /// let registry = PluginRegistry()
    /// registry.registerHTTP()
    /// let model = try MappingLoader(catalog: registry.catalog).load(["crm.yml"])
    /// ```
    ///
    /// - Parameter exchanges: a recording the sources write every exchange to, or answer from
    ///   instead of the network (`rmap run --record DIR`, `--replay DIR`).
    public func registerHTTP(exchanges: ExchangeLog? = nil) {
        let pool = ClientPool(exchanges: exchanges)
        register(source: "http", options: HTTPSource.options) { config, model in
            try HTTPSource(config: config, model: model, pool: pool) { _ in }
        }
        register(source: "graphql", options: GraphQLSource.options) { config, model in
            try GraphQLSource(config: config, model: model, pool: pool) { _ in }
        }
    }
}
