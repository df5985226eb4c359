import Synchronization

/// A Prometheus counter with a fixed list of label names, one series per combination of label values.
/// Each family has its own lock, so counting never contends with other families.
public final class CounterFamily: Sendable {
    /// The metric name, e.g. `sesame_http_requests_total`.
    public let name: String
    /// The `# HELP` text.
    public let help: String
    /// The label names, in the order `increment` takes their values.
    public let labelNames: [String]

    private let series = Mutex<[[String]: UInt64]>([:])

    init(name: String, help: String, labelNames: [String]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
    }

    /// Adds `amount` to the series with these label values (one per label name, in order).
    /// A call with the wrong number of values is ignored.
    public func increment(_ labelValues: [String] = [], by amount: UInt64 = 1) {
        guard labelValues.count == labelNames.count else { return }
        series.withLock { $0[labelValues, default: 0] &+= amount }
    }

    /// The current value of one series (0 when never incremented).
    public func value(_ labelValues: [String] = []) -> UInt64 { series.withLock { $0[labelValues] ?? 0 } }

    /// Appends this family in text exposition format 0.0.4.
    func render(into out: inout String) {
        let snapshot = series.withLock { $0 }
        out += "# HELP \(name) \(MetricsText.escapeHelp(help))\n# TYPE \(name) counter\n"
        for (values, count) in snapshot.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            out += name + MetricsText.labels(labelNames, values) + " \(count)\n"
        }
    }
}
