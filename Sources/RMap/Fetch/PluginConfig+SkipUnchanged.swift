extension PluginConfig {
    /// `skip_unchanged: true` on a `file` or `stdin` source: payloads whose bytes are those of the
    /// last run are skipped (``RememberedPayloads``).
    var skipsUnchanged: Bool { self["skip_unchanged"]?.scalar?.text == "true" }
}
