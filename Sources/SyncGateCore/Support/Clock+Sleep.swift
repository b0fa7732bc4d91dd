extension Clock where Duration == Swift.Duration {
    /// Returns a function that sleeps until `duration` after now, with now read at this call.
    ///
    /// Reading the clock here rather than when the returned function runs keeps a timer's deadline
    /// tied to the moment it was requested, however late the sleeping task starts.
    package func sleeper(for duration: Swift.Duration) -> @Sendable () async throws -> Void {
        let deadline = now.advanced(by: duration)
        return { try await self.sleep(until: deadline, tolerance: nil) }
    }
}
