import Synchronization

/// A registry of metric families rendered in the Prometheus text exposition format 0.0.4 (`/metrics`).
///
/// Register families once at start-up and keep the returned objects; recording then takes only that
/// family's lock. The server records `sesame_http_requests_total{route,method,status}` and
/// `sesame_http_request_duration_seconds{route}` for every request.
public final class Metrics: Sendable {
    private enum Family: Sendable {
        case counter(CounterFamily)
        case histogram(HistogramFamily)
        case collected(CollectedCounterFamily)
    }

    private let families = Mutex<[(name: String, family: Family)]>([])

    /// Requests answered, by route pattern, method and status.
    public let httpRequests: CounterFamily
    /// Time from the request line to the queued response, in seconds, by route pattern.
    public let httpDuration: HistogramFamily

    /// Creates a registry holding the HTTP families.
    public init() {
        let requests = CounterFamily(
            name: "sesame_http_requests_total", help: "HTTP requests answered, by route pattern, method and status.",
            labelNames: ["route", "method", "status"])
        let duration = HistogramFamily(
            name: "sesame_http_request_duration_seconds",
            help: "Time from the request line to the queued response, by route pattern.", labelNames: ["route"],
            buckets: HistogramFamily.latencyBuckets)
        httpRequests = requests
        httpDuration = duration
        families.withLock {
            $0.append((requests.name, .counter(requests)))
            $0.append((duration.name, .histogram(duration)))
        }
    }

    /// The counter family `name`, registered now or earlier (an existing counter of that name is returned;
    /// if the name belongs to a histogram the new counter is returned unregistered).
    public func counter(_ name: String, help: String, labels: [String] = []) -> CounterFamily {
        families.withLock { families in
            for entry in families where entry.name == name {
                if case .counter(let existing) = entry.family { return existing }
                return CounterFamily(name: name, help: help, labelNames: labels)
            }
            let family = CounterFamily(name: name, help: help, labelNames: labels)
            families.append((name, .counter(family)))
            return family
        }
    }

    /// The histogram family `name`, registered now or earlier (same rules as `counter`).
    public func histogram(_ name: String, help: String, labels: [String] = [], buckets: [Double]) -> HistogramFamily {
        families.withLock { families in
            for entry in families where entry.name == name {
                if case .histogram(let existing) = entry.family { return existing }
                return HistogramFamily(name: name, help: help, labelNames: labels, buckets: buckets)
            }
            let family = HistogramFamily(name: name, help: help, labelNames: labels, buckets: buckets)
            families.append((name, .histogram(family)))
            return family
        }
    }

    /// Registers a counter whose series are read when `/metrics` is rendered, from counts kept
    /// elsewhere (an atomic in a service that cannot see this registry). `collect` returns each
    /// series' label values (one per label name) and its value. A name already taken is ignored.
    public func collectedCounter(
        _ name: String, help: String, labels: [String],
        collect: @escaping @Sendable () -> [(labels: [String], value: UInt64)]
    ) {
        families.withLock { families in
            guard !families.contains(where: { $0.name == name }) else { return }
            families.append(
                (name, .collected(CollectedCounterFamily(name: name, help: help, labelNames: labels, collect: collect)))
            )
        }
    }

    /// Every family in registration order, in text exposition format 0.0.4.
    public func render() -> String {
        let snapshot = families.withLock { $0 }
        var out = ""
        for entry in snapshot {
            switch entry.family {
            case .counter(let family): family.render(into: &out)
            case .histogram(let family): family.render(into: &out)
            case .collected(let family): family.render(into: &out)
            }
        }
        return out
    }

    /// The `/metrics` response: `text/plain; version=0.0.4; charset=utf-8`.
    public func response() -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"],
            body: Array(render().utf8))
    }
}

/// A counter family whose values are read at render time (`Metrics.collectedCounter`).
struct CollectedCounterFamily: Sendable {
    let name: String
    let help: String
    let labelNames: [String]
    let collect: @Sendable () -> [(labels: [String], value: UInt64)]

    func render(into out: inout String) {
        out += "# HELP \(name) \(MetricsText.escapeHelp(help))\n# TYPE \(name) counter\n"
        for series in collect() where series.labels.count == labelNames.count {
            out += name + MetricsText.labels(labelNames, series.labels) + " \(series.value)\n"
        }
    }
}
