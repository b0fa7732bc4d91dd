import SyncGateCore

#if canImport(Glibc)
    import Glibc
#endif

/// One read of every resource's PSI file, `<directory>/{cpu,io,memory}`: the `some` line's `avg10`
/// and `total` of each.
///
/// The observer takes its levels from a reading and a trigger watch its stall sample, so the files are
/// read and parsed in one place. Each asks only for the field it uses: a file whose `some` line lacks
/// the other one does not fail it.
package struct PressureStallReading: Sendable, Hashable {
    /// The directory read.
    package let directory: String
    /// Each resource's `some avg10`, in percent; a resource is missing when its file has no valid one.
    package let averages: [PressureResource: Double]
    /// Each resource's `some total`; a resource is missing when its file has no valid one.
    package let totals: [PressureResource: UInt64]
    /// When the files were read.
    package let instant: ContinuousClock.Instant

    /// Why a reading gave no levels: the first file that could not be read, or held no valid `avg10`.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// `cannot read /proc/pressure/cpu (a kernel without PSI?)`, `cannot read /proc/pressure/cpu (Too many
        /// open files)` or `no \`some avg10=\` in …`.
        package let description: String
    }

    /// Reads the three files now.
    ///
    /// - Throws: ``Failure`` naming the first file that cannot be read.
    package static func read(directory: String) throws(Failure) -> PressureStallReading {
        var averages: [PressureResource: Double] = [:]
        var totals: [PressureResource: UInt64] = [:]
        for resource in PressureResource.allCases {
            let path = directory + "/" + resource.rawValue
            guard let text = PowerSupplyReader.readAttribute(path) else {
                // A missing file is a kernel without PSI; any other failure (no descriptor left, say) says so.
                let code = errno
                let why =
                    switch code {
                    case ENOENT: "a kernel without PSI?"
                    case 0: "empty"
                    default: SystemErrorText.message(code)
                    }
                throw Failure(description: "cannot read \(path) (\(why))")
            }
            averages[resource] = PressureStallParser.someAverage10(text)
            totals[resource] = PressureStallParser.someTotal(text)
        }
        return PressureStallReading(directory: directory, averages: averages, totals: totals, instant: .now)
    }

    /// Every resource's `avg10`.
    ///
    /// - Throws: ``Failure`` naming the first file without a valid `some avg10` (0 to 100).
    package func levels() throws(Failure) -> PressureLevels {
        var levels = PressureLevels()
        for resource in PressureResource.allCases {
            guard let average = averages[resource] else {
                throw Failure(description: "no `some avg10=` in \(directory)/\(resource.rawValue)")
            }
            levels[resource] = average
        }
        return levels
    }

    /// Every resource's `total` at ``instant``; `nil` when a file has no valid `some total`.
    package var sample: PressureStallSample? {
        guard totals.count == PressureResource.allCases.count else { return nil }
        return PressureStallSample(totals: totals, instant: instant)
    }
}
