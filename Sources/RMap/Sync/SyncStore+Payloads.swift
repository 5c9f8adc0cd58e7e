extension SyncStore {
    /// Forgets every payload that runs remembered unchanged (``RememberedPayloads``): an
    /// acknowledged push rewrites bases from the server's answers, so a payload equal to the
    /// last one no longer means "nothing to change", and the next run maps it again.
    /// Call inside the acknowledgement's transaction; inside a batch, the first call does it for all.
    func forgetRememberedPayloads() throws {
        if batch?.forgotPayloads == true { return }
        batch?.forgotPayloads = true
        var update = RunStateUpdate()
        update.clear(scope: RememberedPayloads.scope)
        try RunStateTable.write(update, to: engine)
    }
}
