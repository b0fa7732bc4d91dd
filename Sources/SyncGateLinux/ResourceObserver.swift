import SyncGateCore

#if os(Linux)
    /// Resource pressure (the kernel's PSI) and heat (thermal zones), read only while someone needs them.
    ///
    /// **Pressure.** While no job or waiter of the environment needs ``SyncRequirements/notUnderPressure``,
    /// the observer reads nothing and holds no trigger. When the first one needs it, it reads `avg10` of
    /// `/proc/pressure/{cpu,io,memory}` at once (before the job is queued). If every resource is below its
    /// threshold (``PressureThresholds``), it arms one PSI trigger per resource, a stall of the threshold's
    /// share of a 2 s window (``PressureStallParser/trigger(percent:)``), and waits for them in `poll` on a
    /// thread of its own (`sg-pressure`): no wake-up while the machine is calm. A trigger's signal counts
    /// only when the stall totals bear it out (``PressureStallSample``), since the kernel can signal a
    /// freshly armed trigger with no stall behind it. When a trigger fires, or a
    /// resource is at or above its threshold, the status says under pressure, and the observer reads
    /// `avg10` again every pressure check interval on the injected clock, until every resource is below its
    /// threshold; then it re-arms the triggers. When nobody needs the requirement any more, the thread and
    /// the timer end. Where PSI cannot be read or a trigger cannot be armed (no `/proc/pressure`, a kernel
    /// without PSI, `EOPNOTSUPP`), pressure never blocks and ``provenance`` says `unavailable` with a note.
    ///
    /// **Heat.** Thermal zones do not notify, so while someone needs ``SyncRequirements/notHot`` the
    /// observer reads `/sys/class/thermal/thermal_zone*` at once and then every thermal check interval on
    /// the injected clock, and not at all otherwise. The rule is ``ThermalZoneReader``'s: hot while any zone
    /// is at or above its passive trip point. Where no zone has a passive trip point, heat never blocks,
    /// ``provenance`` says `unavailable`, and the zones are not read again until the demand starts again.
    ///
    /// Both are read once when the observer is created, so a status report shows them.
    ///
    /// ```swift
    /// let resources = ResourceObserver(thresholds: PressureThresholds(cpu: 30))
    /// let environment = SyncEnvironment(connectivity: ConnectivityObserver(), resources: resources)
    /// ```
    public final class ResourceObserver: ResourceObserving, BroadcastBacked, DemandFollowing {
        private enum Pressure {
            /// Nobody needs the requirement.
            case idle
            /// Reading `avg10`, or arming the triggers, for the step of the same number.
            case busy
            /// The triggers are armed and their thread waits.
            case armed(PressureTriggerWatch)
            /// Under pressure: the timer reads `avg10` again; `nil` from the read that found the pressure
            /// until the status showing it is published and the timer armed after it.
            case pressured(Task<Void, Never>?)
            /// PSI cannot be used here; nothing is armed until the demand starts again.
            case unavailable

            var isArmed: Bool {
                if case .armed = self { return true }
                return false
            }
        }

        private struct State {
            var demand: RequirementDemand?
            var status: ResourceStatus
            /// Bumped by every change of `pressure`, so a stale read, fire or timer does nothing.
            var pressureStep: UInt64 = 0
            var pressure: Pressure = .idle
            var heatTimer: Task<Void, Never>?
            var heatGeneration: UInt64 = 0
            var pressureReads = 0
            var thermalReads = 0
            var pressureProblem: String?
            var heatProblem: String?
            var isStopped = false
        }

        /// The broadcast that holds the status.
        package let broadcast: StatusBroadcast<ResourceStatus>
        private let pressureDirectory: String
        private let thermalRoot: String
        private let thresholds: PressureThresholds
        private let pressureCheckInterval: Duration
        private let thermalCheckInterval: Duration
        private let clock: any Clock<Duration>
        private let state: LockedState<State>

        /// Creates an observer of this machine's pressure and thermal zones, and reads both once.
        ///
        /// - Parameters:
        ///   - thresholds: the `avg10` percentages at or above which a resource is under pressure; each
        ///     must be above 0 and at most 100 (``PressureThresholds/validationError``).
        ///   - pressureCheckInterval: how often `avg10` is read while under pressure and needed (5 s by
        ///     default). Must be positive.
        ///   - thermalCheckInterval: how often the thermal zones are read while needed (30 s by default).
        ///     Must be positive.
        ///   - clock: the clock of both timers.
        public convenience init(
            thresholds: PressureThresholds = .default,
            pressureCheckInterval: Duration = .seconds(5),
            thermalCheckInterval: Duration = .seconds(30),
            clock: any Clock<Duration> = ContinuousClock()
        ) {
            self.init(
                pressureDirectory: "/proc/pressure", thermalRoot: "/sys/class/thermal", thresholds: thresholds,
                pressureCheckInterval: pressureCheckInterval, thermalCheckInterval: thermalCheckInterval,
                clock: clock)
        }

        /// Creates an observer of the PSI files in `pressureDirectory` and the zones under `thermalRoot`
        /// (fixture trees in tests), and reads both once.
        package init(
            pressureDirectory: String,
            thermalRoot: String,
            thresholds: PressureThresholds = .default,
            pressureCheckInterval: Duration = .seconds(5),
            thermalCheckInterval: Duration = .seconds(30),
            clock: any Clock<Duration> = ContinuousClock()
        ) {
            if let problem = thresholds.validationError { preconditionFailure("ResourceObserver: \(problem)") }
            precondition(
                pressureCheckInterval > .zero,
                "ResourceObserver pressureCheckInterval must be positive, got \(pressureCheckInterval)")
            precondition(
                thermalCheckInterval > .zero,
                "ResourceObserver thermalCheckInterval must be positive, got \(thermalCheckInterval)")
            self.pressureDirectory = pressureDirectory
            self.thermalRoot = thermalRoot
            self.thresholds = thresholds
            self.pressureCheckInterval = pressureCheckInterval
            self.thermalCheckInterval = thermalCheckInterval
            self.clock = clock
            let initial = ResourceStatus(pressureThresholds: thresholds)
            state = LockedState(State(status: initial))
            broadcast = StatusBroadcast(initial)
            readPressureOnce()
            readThermal()
        }

        deinit {
            // The timers are cancelled after the lock: a clock's cancellation handler runs on this thread.
            let (watch, timers): (PressureTriggerWatch?, [Task<Void, Never>]) = state.withLock { state in
                state.isStopped = true
                let heat = state.heatTimer.take()
                defer { state.pressure = .idle }
                switch state.pressure {
                case .armed(let watch): return (watch, heat.map { [$0] } ?? [])
                case .pressured(let timer): return (nil, [heat, timer].compactMap { $0 })
                default: return (nil, heat.map { [$0] } ?? [])
                }
            }
            for timer in timers { timer.cancel() }
            watch?.stop()
            broadcast.finish()
        }

        /// The current status. Thread-safe.
        public var status: ResourceStatus { broadcast.value }

        /// A new stream: the current status first, then every change.
        public var statusStream: AsyncStream<ResourceStatus> { broadcast.stream(retaining: self) }

        /// PSI and the thermal zones, or `unavailable` for either with a note saying why.
        public var provenance: ResourceProvenance {
            state.withLock { state in
                ResourceProvenance(
                    pressure: state.pressureProblem == nil ? .psi : .unavailable,
                    heat: state.heatProblem == nil ? .thermalZones : .unavailable,
                    notes: [state.pressureProblem.map { "pressure: \($0)" }, state.heatProblem.map { "heat: \($0)" }]
                        .compactMap { $0 })
            }
        }

        /// How many times the PSI files' `avg10` were read, for tests.
        package var pressureReadCount: Int { state.withLock { $0.pressureReads } }
        /// How many times the thermal zones were read, for tests.
        package var thermalReadCount: Int { state.withLock { $0.thermalReads } }
        /// Whether the PSI triggers are armed (calm, and needed), for tests.
        package var areTriggersArmed: Bool { state.withLock { $0.pressure.isArmed } }
        /// Whether a timer of either kind is armed, for tests.
        package var isTimerArmed: Bool {
            state.withLock { state in
                if case .pressured = state.pressure { return true }
                return state.heatTimer != nil
            }
        }

        /// Fires the armed triggers' watch as the kernel would (see ``PressureTriggerWatch/simulateFire()``),
        /// for tests on fixture files; `false` when no trigger is armed.
        @discardableResult
        package func simulateTrigger() -> Bool {
            guard let watch = armedWatch else { return false }
            watch.simulateFire()
            return true
        }

        /// Signals the armed triggers as the kernel does, checked against the stall totals like a real
        /// signal, for tests; `false` when none is armed.
        @discardableResult
        package func simulateSignal() -> Bool {
            guard let watch = armedWatch else { return false }
            watch.simulateSignal()
            return true
        }

        private var armedWatch: PressureTriggerWatch? {
            state.withLock { state in
                if case .armed(let watch) = state.pressure { return watch }
                return nil
            }
        }

        /// Follows `demand`: pressure and heat are watched only while it needs their requirements. The
        /// environment calls this once, when it is given the observer.
        package func follow(_ demand: RequirementDemand) {
            state.withLock { $0.demand = demand }
            demand.addListener(for: .notUnderPressure) { [weak self] in self?.pressureDemandChanged() }
            demand.addListener(for: .notHot) { [weak self] in self?.heatDemandChanged() }
            pressureDemandChanged()
            heatDemandChanged()
        }

        // MARK: - Pressure

        private func pressureDemandChanged() {
            // The demand's lock is a leaf: reading it here keeps the newest answer whatever the call order.
            let change: (start: UInt64?, stop: PressureTriggerWatch?, timer: Task<Void, Never>?) = state.withLock {
                state in
                let needed = !state.isStopped && (state.demand?.isNeeded(.notUnderPressure) ?? false)
                let active: Bool
                if case .idle = state.pressure { active = false } else { active = true }
                guard needed != active else { return (nil, nil, nil) }
                state.pressureStep &+= 1
                if needed {
                    state.pressure = .busy
                    return (state.pressureStep, nil, nil)
                }
                defer { state.pressure = .idle }
                switch state.pressure {
                case .armed(let watch): return (nil, watch, nil)
                case .pressured(let timer): return (nil, nil, timer)
                default: return (nil, nil, nil)
                }
            }
            // Cancelled after the lock: a clock's cancellation handler runs on this thread.
            change.timer?.cancel()
            change.stop?.stop()
            if let step = change.start { checkPressure(step: step) }
        }

        /// Reads `avg10` and, for the current step, either arms the timer (under pressure) or the triggers.
        private func checkPressure(step: UInt64) {
            /// What the read leads to, after the critical section that takes it.
            enum Next {
                case nothing
                case armTriggers(UInt64)
                case armTimer(UInt64)
            }
            let levels = readLevels()
            let next: Next = state.withLock { state in
                guard state.pressureStep == step else { return .nothing }
                state.pressureStep &+= 1
                guard let levels else {
                    state.pressure = .unavailable
                    return .nothing
                }
                if levels.resourcesAtOrAbove(thresholds).isEmpty {
                    state.pressure = .busy
                    return .armTriggers(state.pressureStep)
                }
                state.pressure = .pressured(nil)
                return .armTimer(state.pressureStep)
            }
            switch next {
            // Calm: the triggers are armed before the status says so, and arming publishes it.
            case .armTriggers(let step): armTriggers(step: step)
            case .armTimer(let step):
                publish()
                armPressureTimer(step: step)
            case .nothing: publish()
            }
        }

        private func armTriggers(step: UInt64) {
            let armed = PressureTriggerWatch.arm(directory: pressureDirectory, thresholds: thresholds)
            let watch: PressureTriggerWatch? = state.withLock { state in
                guard state.pressureStep == step else { return nil }
                switch armed {
                case .success(let watch):
                    state.pressure = .armed(watch)
                    return watch
                case .failure(let error):
                    state.pressureStep &+= 1
                    state.pressure = .unavailable
                    state.pressureProblem = "cannot arm a PSI trigger: \(error)"
                    state.status.isUnderPressure = false
                    return nil
                }
            }
            publish()
            guard let watch else { return }
            let started = watch.start { [weak self] event in
                switch event {
                case .fired: self?.triggerFired(step: step)
                case .dismissed, .stopped: break
                }
            }
            if !started {
                state.withLock { state in
                    guard state.pressureStep == step else { return }
                    state.pressureStep &+= 1
                    state.pressure = .unavailable
                    state.pressureProblem = "cannot start the thread that waits for PSI triggers"
                }
            }
        }

        private func triggerFired(step: UInt64) {
            let timerStep: UInt64? = state.withLock { state in
                guard state.pressureStep == step, case .armed = state.pressure else { return nil }
                state.pressureStep &+= 1
                state.status.isUnderPressure = true
                state.pressure = .pressured(nil)
                return state.pressureStep
            }
            guard let timerStep else { return }
            publish()
            armPressureTimer(step: timerStep)
        }

        /// Arms the timer of the next `avg10` read under pressure, after the status of the read before it was
        /// published (so whoever sees the timer armed sees that status too); not if the step moved on
        /// meanwhile.
        private func armPressureTimer(step: UInt64) {
            let timer = makePressureTimer(step: step)
            let armed = state.withLock { state in
                guard state.pressureStep == step, case .pressured(nil) = state.pressure else { return false }
                state.pressure = .pressured(timer)
                return true
            }
            if !armed { timer.cancel() }
        }

        private func makePressureTimer(step: UInt64) -> Task<Void, Never> {
            let clock = clock
            let interval = pressureCheckInterval
            return Task { [weak self] in
                do { try await clock.sleep(forAny: interval) } catch { return }
                self?.checkPressure(step: step)
            }
        }

        /// Reads once at creation: the levels, and under pressure when one is at or above its threshold.
        private func readPressureOnce() {
            _ = readLevels()
            publish()
        }

        /// Reads every resource's `avg10` into the status; `nil` (and a problem noted, not under pressure)
        /// when a file cannot be read or parsed.
        private func readLevels() -> PressureLevels? {
            var levels = PressureLevels()
            var problem: String?
            do {
                levels = try PressureStallReading.read(directory: pressureDirectory).levels()
            } catch {
                problem = error.description
            }
            let thresholds = thresholds
            return state.withLock { state in
                state.pressureReads += 1
                if let problem {
                    state.pressureProblem = problem
                    state.status.pressure = nil
                    state.status.isUnderPressure = false
                    return nil
                }
                state.pressureProblem = nil
                state.status.pressure = levels
                if !state.pressure.isArmed {
                    state.status.isUnderPressure = !levels.resourcesAtOrAbove(thresholds).isEmpty
                }
                return levels
            }
        }

        // MARK: - Heat

        private func heatDemandChanged() {
            let (started, stopped): (UInt64?, Task<Void, Never>?) = state.withLock { state in
                let needed = !state.isStopped && (state.demand?.isNeeded(.notHot) ?? false)
                if needed == (state.heatTimer != nil) { return (nil, nil) }
                state.heatGeneration &+= 1
                if needed {
                    state.heatTimer = makeHeatTimer(generation: state.heatGeneration)
                    return (state.heatGeneration, nil)
                }
                return (nil, state.heatTimer.take())
            }
            // Cancelled after the lock: a clock's cancellation handler runs on this thread.
            stopped?.cancel()
            // Zones without a passive trip point do not gain one: the timer stops at once, until the demand
            // starts again (never a second read for nothing).
            if let generation = started, !readThermal() { stopHeatTimer(generation: generation) }
        }

        /// Cancels the heat timer of `generation` (not a later one), leaving the demand to start it again.
        private func stopHeatTimer(generation: UInt64) {
            let stopped: Task<Void, Never>? = state.withLock { state in
                guard state.heatGeneration == generation else { return nil }
                return state.heatTimer.take()
            }
            // Cancelled after the lock: a clock's cancellation handler runs on this thread.
            stopped?.cancel()
        }

        private func makeHeatTimer(generation: UInt64) -> Task<Void, Never> {
            let clock = clock
            let interval = thermalCheckInterval
            return Task { [weak self] in
                while !Task.isCancelled {
                    do { try await clock.sleep(forAny: interval) } catch { return }
                    guard let self, state.withLock({ $0.heatGeneration == generation && !$0.isStopped }) else {
                        return
                    }
                    // Zones without a passive trip point do not gain one: stop reading until the demand restarts.
                    guard readThermal() else { return }
                }
            }
        }

        /// Reads the zones and publishes the result; `false` when no zone decides heat (unavailable).
        @discardableResult
        private func readThermal() -> Bool {
            let reading = ThermalZoneReader.decidingZone(ThermalZoneReader.readZones(root: thermalRoot))
            let root = thermalRoot
            state.withLock { state in
                state.thermalReads += 1
                state.status.thermal = reading
                state.status.isHot = reading?.isHot ?? false
                state.heatProblem = reading == nil ? "no thermal zone under \(root) has a passive trip point" : nil
            }
            publish()
            return reading != nil
        }

        /// Publishes the newest status, read inside the broadcast's critical section (the state's lock is
        /// a leaf), so two publishers on two threads never leave an older one last.
        private func publish() {
            broadcast.update { [state] value in value = state.withLock { $0.status } }
        }
    }
#endif
