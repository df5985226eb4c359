import Synchronization

/// A Prometheus histogram with fixed buckets and label names, e.g. request latency in seconds.
public final class HistogramFamily: Sendable {
    /// The metric name, e.g. `sesame_http_request_duration_seconds`.
    public let name: String
    /// The `# HELP` text.
    public let help: String
    /// The label names, in the order `observe` takes their values.
    public let labelNames: [String]
    /// The upper bounds of the buckets, ascending (`+Inf` is implicit).
    public let buckets: [Double]

    private struct Series {
        var counts: [UInt64]
        var sum: Double
        var count: UInt64
    }

    private let series = Mutex<[[String]: Series]>([:])

    /// Bounds suited to HTTP latency in seconds: 0.5 ms to 10 s.
    public static let latencyBuckets: [Double] = [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]

    init(name: String, help: String, labelNames: [String], buckets: [Double]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
        self.buckets = Array(Set(buckets.filter { $0.isFinite })).sorted()
    }

    /// Records one observation in the series with these label values (ignored on a label-count mismatch).
    public func observe(_ value: Double, _ labelValues: [String] = []) {
        guard labelValues.count == labelNames.count, !value.isNaN else { return }
        let bucket = buckets.firstIndex { value <= $0 } ?? buckets.count
        let size = buckets.count
        series.withLock { all in
            var entry = all[labelValues] ?? Series(counts: [UInt64](repeating: 0, count: size + 1), sum: 0, count: 0)
            if entry.counts.indices.contains(bucket) { entry.counts[bucket] &+= 1 }
            entry.sum += value
            entry.count &+= 1
            all[labelValues] = entry
        }
    }

    /// The number of observations in one series.
    public func count(_ labelValues: [String] = []) -> UInt64 { series.withLock { $0[labelValues]?.count ?? 0 } }

    /// Appends this family in text exposition format 0.0.4 (cumulative `_bucket`, `_sum`, `_count`).
    func render(into out: inout String) {
        let snapshot = series.withLock { $0 }
        out += "# HELP \(name) \(MetricsText.escapeHelp(help))\n# TYPE \(name) histogram\n"
        for (values, entry) in snapshot.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            var cumulative: UInt64 = 0
            for (index, count) in entry.counts.enumerated() {
                cumulative &+= count
                let bound = index < buckets.count ? MetricsText.number(buckets[index]) : "+Inf"
                out += name + "_bucket" + MetricsText.labels(labelNames + ["le"], values + [bound]) + " \(cumulative)\n"
            }
            let labels = MetricsText.labels(labelNames, values)
            out += name + "_sum" + labels + " " + MetricsText.number(entry.sum) + "\n"
            out += name + "_count" + labels + " \(entry.count)\n"
        }
    }
}
