import CMicroHTTPD
import Foundation
import Synchronization
import Testing

@testable import SesameHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// The queue-wait limit: the decision for a given wait (the measure injected), and on a live server
/// both an injected measure and the kernel's own (a request held behind a busy worker).
@Suite("Load shedding", .serialized)
struct LoadShedderTests {
    @Test func aRequestIsShedOnlyWhenItWaitedLongerThanTheLimit() throws {
        let waits = Mutex<[Int32: Double]>([7: 0.2, 8: 0.5, 9: 0.51, 10: 30])
        let shedder = LoadShedder(maxQueueWait: 0.5, measure: { socket in waits.withLock { $0[socket] } })
        #expect(shedder.rejection(path: "/passkey/challenge", socket: 7) == nil)
        #expect(shedder.rejection(path: "/passkey/challenge", socket: 8) == nil)  // at the limit: served
        let shed = try #require(shedder.rejection(path: "/oauth/token", socket: 9))
        #expect(shed.status == 503)
        #expect(shed.error == "temporarily_unavailable")
        #expect(shed.headers["Retry-After"] == "1")
        #expect(shedder.rejection(path: "/api/v2/users", socket: 10) != nil)
        // Health and metrics are answered however stale; a socket the kernel cannot measure is served.
        #expect(shedder.rejection(path: "/healthz", socket: 10) == nil)
        #expect(shedder.rejection(path: "/metrics", socket: 10) == nil)
        #expect(shedder.rejection(path: "/oauth/token", socket: 11) == nil)
        #expect(shedder.shed == 2)
    }

    @Test func zeroTurnsSheddingOff() {
        let shedder = LoadShedder(maxQueueWait: 0, measure: { _ in 3_600 })
        #expect(shedder.rejection(path: "/oauth/token", socket: 3) == nil)
        #expect(shedder.rejection(waited: 3_600) == nil)
        #expect(shedder.shed == 0)
        #expect(LoadShedder(maxQueueWait: 1, retryAfterSeconds: 0).retryAfterSeconds == 1)
    }

    @Test func theLimitIsChecked() {
        for bad in [-1, Double.nan, 3_601] {
            var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
            configuration.limits.maxQueueWaitSeconds = bad
            #expect(throws: HTTPServerError.invalidLimit("maxQueueWaitSeconds")) {
                try HTTPServer(configuration: configuration, router: Router())
            }
        }
    }

    /// What `/slow` waits for (this suite's own, so no other suite's test can open it).
    static let gate = DispatchSemaphore(value: 0)

    static func router() -> Router {
        var router = Router()
        router.post("/echo") { request, _ in try HTTPResponse.json(try request.decodeJSON(EchoBody.self)) }
        router.get("/hello/{name}") { _, _ in .text("hello") }
        router.get("/slow") { _, _ in
            _ = gate.wait(timeout: .now() + 10)  // a liveness bound, never reached
            return .text("slow done")
        }
        return router
    }

    static func server(maxQueueWait: Double, metrics: Metrics, measure: (@Sendable (Int32) -> Double?)?) throws
        -> HTTPServer
    {
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.threads = 1
        configuration.limits.maxQueueWaitSeconds = maxQueueWait
        let responder = HTTPResponder(
            router: router(), metrics: metrics, log: RequestLog(level: .error, sink: { _ in }))
        let shedder = measure.map { LoadShedder(maxQueueWait: maxQueueWait, measure: $0) }
        return try HTTPServer(configuration: configuration, responder: responder, shedder: shedder)
    }

    @Test func aStaleRequestGetsTheGroupsErrorAndIsCounted() throws {
        let metrics = Metrics()
        let server = try Self.server(maxQueueWait: 0.5, metrics: metrics, measure: { _ in 2 })
        defer { server.stop(gracePeriod: 1) }
        let client = try RawHTTPClient(port: server.port)
        let response = try client.postJSON("/echo", #"{"name":"a","count":1}"#)
        #expect(response.status == 503)
        #expect(response.header("Retry-After") == "1")
        #expect(response.json["error"] == "temporarily_unavailable")
        // The connection stays usable and the next stale request is shed the same way.
        #expect(try client.get("/hello/x").status == 503)
        #expect(server.shedRequests == 2)
        #expect(metrics.counter("sesame_http_requests_shed_total", help: "").value() == 2)
        #expect(metrics.httpRequests.value(["/echo", "POST", "503"]) == 1)
        #expect(metrics.render().contains("sesame_http_requests_shed_total 2"))
    }

    @Test func theKernelMeasuresARequestHeldBehindABusyWorker() throws {
        let seen = Mutex<[Double?]>([])
        let server = try Self.server(
            maxQueueWait: 0.2, metrics: Metrics(),
            measure: { socket in
                let wait = LoadShedder.kernelQueueWait(socket)
                seen.withLock { $0.append(wait) }
                return wait
            })
        defer { server.stop(gracePeriod: 1) }
        // The only worker is held by /slow; /echo arrives on another connection meanwhile.
        let holder = try RawHTTPClient(port: server.port)
        try holder.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(HTTPServerLiveTests.eventually { server.inFlightRequests == 1 })
        let waiting = try RawHTTPClient(port: server.port)
        let body = #"{"name":"b","count":2}"#
        try waiting.send(
            "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        // On loopback the bytes are in the server's socket once send returns; the kernel's own
        // clock (the client side of the same connection) says when they are older than the limit.
        #expect(HTTPServerLiveTests.eventually { sesame_tcp_last_data_sent_ms(waiting.fd) >= 400 })
        Self.gate.signal()
        #expect(try holder.readResponse().status == 200)
        let shed = try waiting.readResponse()
        #expect(shed.status == 503)
        #expect(shed.header("Retry-After") == "1")
        // A fresh request on the same connection is measured afresh and served.
        #expect(try waiting.postJSON("/echo", body).status == 200)
        let waits = seen.withLock { $0 }
        #expect(waits.count == 3)
        #expect(waits.allSatisfy { $0 != nil })
        #expect((waits[1] ?? 0) >= 0.4)
        #expect(server.shedRequests == 1)
    }
}
