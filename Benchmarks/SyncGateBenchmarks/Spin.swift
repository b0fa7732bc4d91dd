/// Busy-waits for a few microseconds so a task that has just handed over its continuation is surely
/// suspended before the measurement starts. Both sides of every latency comparison call it.
func settle(_ duration: Duration = .microseconds(20)) {
    let clock = ContinuousClock()
    let deadline = clock.now + duration
    while clock.now < deadline {}
}
