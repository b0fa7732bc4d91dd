/// How many of a released crowd had started (or resumed) how long after the change.
struct ReleaseCurve: Codable, Sendable {
    /// What the curve counts.
    var name: String
    /// The crowd's size.
    var total: Int
    /// `[milliseconds after the change, count started by then]`, at most a few hundred points.
    var points: [[Double]]

    /// Builds the curve from each member's start in nanoseconds after the change.
    init(name: String, offsets: [Double]) {
        self.name = name
        total = offsets.count
        let sorted = offsets.sorted()
        let step = max(1, sorted.count / 300)
        var points: [[Double]] = [[0, 0]]
        var index = step - 1
        while index < sorted.count {
            points.append([sorted[index] / 1e6, Double(index + 1)])
            index += step
        }
        if let last = sorted.last, points.last?[1] != Double(sorted.count) {
            points.append([last / 1e6, Double(sorted.count)])
        }
        self.points = points
    }
}
