import Testing

@Suite("rmap plugins")
struct PluginsCommandTests {
    @Test("lists sources and stores with their options, transformers and stages")
    func listing() throws {
        let result = try CLIRunner.run(["plugins"])
        #expect(
            result.stdout == """
                sources:
                  exec    command, env
                  file    path
                  http    site, suffix, headers, auth, page_size, paginate, timeout, retries, concurrency, params, allow_hosts, max_body_bytes, max_pages
                  singer  command, env, config, catalog, properties
                  stdin   entity, format
                stores:
                  json      path
                  memory
                  postgres  url, sslmode, sslrootcert, sslcert, sslkey
                  sqlite    path, busy_timeout
                transformers:
                  capitalize
                  lowercase
                  nullify_blank
                  squish
                  trim
                  uppercase
                stages:
                  (none)

                """)
        #expect(result.stderr == "")
        #expect(result.status == 0)
    }
}
