import Testing

@Suite("rmap plugins")
struct PluginsCommandTests {
    @Test("lists every source, store, transformer and stage with the module it comes from and its options")
    func listing() async throws {
        let result = try await CLIRunner.run(["plugins"])
        #expect(
            result.stdout == """
                sources:
                  exec     RMap      command, env, timeout
                  file     RMap      path, skip_unchanged
                  graphql  RMapHTTP  endpoint, headers, auth, timeout, retries, concurrency, page_size, allow_hosts, max_body_bytes, max_pages, on_status, rate_limit, max_wait
                  http     RMapHTTP  site, suffix, headers, auth, page_size, paginate, timeout, retries, concurrency, params, allow_hosts, max_body_bytes, max_pages, window, size_param, method, body, on_status, error_when, rate_limit, max_wait, format
                  singer   RMap      command, env, config, catalog, properties, timeout
                  stdin    RMap      entity, format, skip_unchanged
                stores:
                  json      RMapSQLite    path, busy_timeout
                  memory    RMapSQLite
                  postgres  RMapPostgres  url, sslmode, sslrootcert, sslcert, sslkey
                  sqlite    RMapSQLite    path, busy_timeout
                transformers:
                  capitalize     RMap
                  exec           RMap  exec, env, timeout
                  lowercase      RMap
                  nullify_blank  RMap
                  squish         RMap
                  trim           RMap
                  uppercase      RMap
                stages:
                  exec  RMap  command, env, timeout

                """)
        #expect(result.stderr == "")
        #expect(result.status == 0)
    }
}
