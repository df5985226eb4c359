/// Per-request latencies in nanoseconds, merged from every load thread.
struct Latencies {
    private(set) var samples: [UInt64] = []

    mutating func append(_ nanoseconds: UInt64) { samples.append(nanoseconds) }
    mutating func merge(_ other: Latencies) { samples += other.samples }

    /// The `fraction` percentile (0.5, 0.99) in microseconds, nearest rank; 0 when empty.
    func percentile(_ fraction: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        let rank = min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))
        return Double(sorted[rank]) / 1e3
    }
}
