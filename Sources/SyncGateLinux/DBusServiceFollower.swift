#if os(Linux)
    /// A follower of D-Bus services (NetworkManager, the power daemons): one ``DBusPropertyFollower`` that
    /// watches their properties, and the mapping of what it sees into the facts an observer merges.
    ///
    /// The follower's owner starts it once and stops it when the owner goes away.
    protocol DBusServiceFollower: AnyObject, Sendable {
        /// The properties the follower watches, on one bus connection.
        var properties: DBusPropertyFollower { get }
    }

    extension DBusServiceFollower {
        /// Connects and waits up to `wait` for the first answers.
        func start(waitingUpTo wait: Duration) {
            properties.start(waitingUpTo: wait)
        }

        /// Stops following the services.
        func stop() {
            properties.stop()
        }
    }
#endif
