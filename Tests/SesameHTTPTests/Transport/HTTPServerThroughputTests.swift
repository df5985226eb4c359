import Foundation
import Testing

@testable import SesameHTTP

/// A rough throughput figure, not an assertion: run with `SESAME_HTTP_BENCH=1`.
@Suite("HTTPServer throughput (manual)")
struct HTTPServerThroughputTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SESAME_HTTP_BENCH"] == "1"))
    func keepAliveRequestsPerSecond() throws {
        var router = Router()
        router.get("/ping") { _, _ in .text("pong") }
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.limits.connectionsPerIP = 0
        let server = try HTTPServer(
            configuration: configuration, router: router, log: RequestLog(level: .error, sink: { _ in }))
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        for _ in 0..<500 { _ = try client.get("/ping") }
        let count = 20_000
        let start = MonotonicClock.now()
        for _ in 0..<count {
            let response = try client.get("/ping")
            #expect(response.status == 200)
        }
        let seconds = MonotonicClock.now() - start
        print(
            "keep-alive GET /ping: \(Int(Double(count) / seconds)) requests/s, \(Int(seconds / Double(count) * 1e6)) µs each"
        )
    }
}
