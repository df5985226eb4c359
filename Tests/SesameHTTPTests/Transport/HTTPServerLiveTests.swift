import Dispatch
import Foundation
import Synchronization
import Testing

@testable import SesameHTTP

#if canImport(Glibc)
    import Glibc
#endif

struct EchoBody: Codable, Equatable {
    var name: String
    var count: Int
}

/// Live tests: a real `HTTPServer` on a loopback port, spoken to over raw sockets.
@Suite("HTTPServer (live, loopback)", .serialized)
struct HTTPServerLiveTests {
    static func router() -> Router {
        var router = Router()
        router.post("/echo") { request, context in
            let body = try request.decodeJSON(EchoBody.self)
            var response = try HTTPResponse.json(body)
            response.headers.add(name: "X-Route", value: context.routePattern)
            return response
        }
        router.get("/hello/{name}") { request, context in
            .text("hello \(context.pathParameters["name"] ?? "") from \(request.clientIP)")
        }
        router.get("/boom") { _, _ in throw SecretLeakingError() }
        router.get("/slow") { _, _ in
            // Held until the test opens the gate (a liveness bound of 10 s, never reached).
            _ = slowGate.wait(timeout: .now() + 10)
            return .text("slow done")
        }
        return router
    }

    /// What `/slow` waits for.
    static let slowGate = DispatchSemaphore(value: 0)

    static func start(
        _ configure: (inout HTTPServer.Configuration) -> Void = { _ in }, metrics: Metrics = Metrics()
    ) throws -> HTTPServer {
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.threads = 2
        configure(&configuration)
        return try HTTPServer(
            configuration: configuration, router: router(), metrics: metrics,
            log: RequestLog(level: .error, sink: { _ in }))
    }

    /// Polls `condition` for up to 10 s (a liveness bound, not a timing assertion).
    static func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    @Test func jsonEchoOnAnEphemeralPort() throws {
        let server = try Self.start()
        defer { server.stop() }
        #expect(server.port > 0)
        let client = try RawHTTPClient(port: server.port)
        let response = try client.postJSON("/echo", #"{"name":"ada","count":2}"#)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.header("X-Route") == "/echo")
        #expect(try JSONDecoder().decode(EchoBody.self, from: Data(response.body)) == EchoBody(name: "ada", count: 2))
        #expect(response.header("X-Request-Id")?.count == 32)
    }

    @Test func badJSONAndWrongMediaTypeAreWireErrors() throws {
        let server = try Self.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        let bad = try client.postJSON("/echo", #"{"name":"ada"}"#)
        #expect(bad.status == 400)
        #expect(
            bad.json == [
                "error": "invalid_request", "error_description": "the body is not valid JSON for this request",
            ])
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi")
        let wrongType = try client.readResponse()
        #expect(wrongType.status == 415)
        #expect(wrongType.json["error"] == "unsupported_media_type")
    }

    @Test func keepAliveServesTwoRequestsOnOneConnection() throws {
        let server = try Self.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        // Both requests written before reading anything (pipelined), then a third after.
        try client.send("GET /hello/a HTTP/1.1\r\nHost: x\r\n\r\nGET /hello/b HTTP/1.1\r\nHost: x\r\n\r\n")
        let first = try client.readResponse()
        let second = try client.readResponse()
        #expect(first.text == "hello a from 127.0.0.1")
        #expect(second.text == "hello b from 127.0.0.1")
        #expect(first.header("Connection")?.lowercased() != "close")
        #expect(second.header("Connection")?.lowercased() != "close")
        let third = try client.postJSON("/echo", #"{"name":"c","count":3}"#)
        #expect(third.status == 200)
        #expect(third.header("Connection")?.lowercased() != "close")
    }

    @Test func headAndOptionsAnd404And405() throws {
        let server = try Self.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        try client.send("HEAD /hello/x HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try client.readResponse(head: true)
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == String("hello x from 127.0.0.1".utf8.count))
        let notFound = try client.get("/nothing")
        #expect(notFound.status == 404)
        #expect(notFound.json["error"] == "not_found")
        try client.send("DELETE /echo HTTP/1.1\r\nHost: x\r\n\r\n")
        let notAllowed = try client.readResponse()
        #expect(notAllowed.status == 405)
        #expect(notAllowed.header("Allow") == "OPTIONS, POST")
        try client.send("OPTIONS /hello/x HTTP/1.1\r\nHost: x\r\n\r\n")
        let options = try client.readResponse()
        #expect(options.status == 204)
        #expect(options.header("Allow") == "GET, HEAD, OPTIONS")
    }

    @Test func declaredBodyOverTheLimitIs413WithoutReadingIt() throws {
        let server = try Self.start { $0.limits.maxBodyBytes = 1024 }
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        // Only the headers are sent: the answer must not wait for the 2000 declared bytes.
        try client.send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2000\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 413)
        #expect(
            response.json == ["error": "request_too_large", "error_description": "the request body exceeds 1024 bytes"])
        #expect(response.header("Content-Type") == "application/json")
        #expect(client.waitForClose())
        #expect(Self.eventually { server.liveRequestStates == 0 })
    }

    @Test func chunkedBodyOverTheLimitIsRefused() throws {
        let server = try Self.start { $0.limits.maxBodyBytes = 1024 }
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        let chunk = String(repeating: "a", count: 800)
        try client.send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "320\r\n\(chunk)\r\n320\r\n\(chunk)\r\n0\r\n\r\n")
        // libmicrohttpd 0.9.75 takes no response mid-upload, so the connection is closed unanswered.
        #expect(throws: RawHTTPClient.ClientError.self) { try client.readResponse() }
        #expect(Self.eventually { server.liveRequestStates == 0 })
    }

    @Test func bodyWithinTheLimitIsAccepted() throws {
        let server = try Self.start { $0.limits.maxBodyBytes = 64 }
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        let body = #"{"name":"\#(String(repeating: "n", count: 30))","count":1}"#
        #expect(body.utf8.count <= 64)
        #expect(try client.postJSON("/echo", body).status == 200)
    }

    @Test func oversizedHeadersAreRefused() throws {
        let server = try Self.start { $0.limits.connectionMemoryBytes = 4096 }
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /hello/a HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 8000))\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 431)  // what libmicrohttpd 0.9.75 answers (its own body, not ours)
        #expect(client.waitForClose())
        // The same header size fits a connection with the default memory limit.
        let roomy = try Self.start()
        defer { roomy.stop() }
        let other = try RawHTTPClient(port: roomy.port)
        #expect(
            try other.get("/hello/a", extraHeaders: "X-Big: \(String(repeating: "b", count: 8000))\r\n").status == 200)
    }

    @Test func perIPConnectionLimit() throws {
        let server = try Self.start { $0.limits.connectionsPerIP = 2 }
        defer { server.stop() }
        let first = try RawHTTPClient(port: server.port)
        let second = try RawHTTPClient(port: server.port)
        #expect(try first.get("/hello/1").status == 200)
        #expect(try second.get("/hello/2").status == 200)
        let third = try RawHTTPClient(port: server.port)
        try? third.send("GET /hello/3 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(third.waitForClose())  // accepted by the kernel, closed by libmicrohttpd unanswered
        #expect(try first.get("/hello/1").status == 200)
    }

    @Test func maxConnections() throws {
        // One thread: libmicrohttpd splits the limit across pool threads, which would make this depend on
        // which worker accepts which connection.
        let server = try Self.start {
            $0.threads = 1
            $0.limits.maxConnections = 2
            $0.limits.connectionsPerIP = 0
            $0.limits.evictIdleConnections = false  // (2 slots keep none free anyway)
            $0.limits.maxQueueWaitSeconds = 0  // the third waits 2 s in the backlog: it would be shed
        }
        defer { server.stop() }
        var first: RawHTTPClient? = try RawHTTPClient(port: server.port)
        let second = try RawHTTPClient(port: server.port)
        #expect(try first?.get("/hello/1").status == 200)
        #expect(try second.get("/hello/2").status == 200)
        // At the limit libmicrohttpd stops accepting: the third waits in the kernel's backlog unanswered…
        let third = try RawHTTPClient(port: server.port, receiveTimeoutSeconds: 2)
        try third.send("GET /hello/3 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(throws: RawHTTPClient.ClientError.self) { try third.readResponse() }
        // …and is served once a slot frees up.
        first = nil
        third.setReceiveTimeout(seconds: 10)
        #expect(try third.readResponse().text == "hello 3 from 127.0.0.1")
        #expect(first == nil)
    }

    @Test func defaultLimitsAreTheDocumentedOnes() {
        let limits = ServerLimits()
        #expect(
            limits
                == ServerLimits(
                    maxBodyBytes: 65536, connectionMemoryBytes: 32768, connectionsPerIP: 64, maxConnections: 1024,
                    connectionTimeoutSeconds: 30))
        #expect(limits.maxQueueWaitSeconds == 0.5)
        #expect(limits.evictIdleConnections)
        #expect(limits.keptFreeSlots(threads: 2) == 2)
        #expect(limits.keptFreeSlots(threads: 16) == 16)
        #expect(
            ServerLimits(
                maxBodyBytes: 1024, connectionMemoryBytes: 4096, connectionsPerIP: 0, maxConnections: 8,
                connectionTimeoutSeconds: 30
            ).keptFreeSlots(threads: 2) == 1)
        #expect(HTTPServer.Configuration().threads == nil)  // one per core, decided at start
        #expect(throws: HTTPServerError.invalidLimit("maxConnections")) {
            try Self.start {
                $0.threads = 2
                $0.limits.maxConnections = 1
            }
        }
    }

    @Test func idleConnectionsTimeOut() throws {
        let server = try Self.start { $0.limits.connectionTimeoutSeconds = 1 }
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        #expect(try client.get("/hello/a").status == 200)
        #expect(client.waitForClose())
    }

    @Test func connectionsWithoutTimeoutStayOpen() throws {
        let open = try Self.start { $0.limits.connectionTimeoutSeconds = 0 }
        defer { open.stop() }
        let closing = try Self.start { $0.limits.connectionTimeoutSeconds = 1 }
        defer { closing.stop() }
        let kept = try RawHTTPClient(port: open.port)
        #expect(try kept.get("/hello/a").status == 200)
        let reference = try RawHTTPClient(port: closing.port)
        #expect(try reference.get("/hello/b").status == 200)
        // The reference connection closing shows a 1 s idle timeout has passed; the other is open.
        #expect(reference.waitForClose())
        #expect(!kept.isClosedByPeer())
        #expect(try kept.get("/hello/again").status == 200)
    }

    @Test func unexpectedErrorIsAGeneric500() throws {
        let server = try Self.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        let response = try client.get("/boom")
        #expect(response.status == 500)
        #expect(response.text == #"{"error":"server_error","error_description":"internal error"}"#)
        #expect(try client.get("/hello/after").status == 200)  // the connection survives
    }

    @Test func rateLimiterAnswers429WithRetryAfter() throws {
        let server = try Self.start { $0.rateLimiter = RateLimiter(requestsPerMinute: 2) }
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        #expect(try client.get("/hello/1").status == 200)
        #expect(try client.get("/hello/2").status == 200)
        let limited = try client.get("/hello/3")
        #expect(limited.status == 429)
        #expect(limited.json["error"] == "too_many_requests")
        let retry = try #require(limited.header("Retry-After").flatMap { Int($0) })
        #expect((1...30).contains(retry))
    }

    @Test func metricsCountEveryRequestByRoute() throws {
        let metrics = Metrics()
        let server = try Self.start(metrics: metrics)
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        _ = try client.get("/hello/a")
        _ = try client.get("/hello/b")
        _ = try client.get("/nothing/here")
        #expect(metrics.httpRequests.value(["/hello/{name}", "GET", "200"]) == 2)
        let text = metrics.render()
        #expect(text.contains(#"sesame_http_requests_total{route="/hello/{name}",method="GET",status="200"} 2"#))
        #expect(text.contains(#"sesame_http_requests_total{route="unmatched",method="GET",status="404"} 1"#))
        #expect(text.contains(#"sesame_http_request_duration_seconds_count{route="/hello/{name}"} 2"#))
    }

    @Test func clientDisconnectMidUploadLeaksNothing() throws {
        let server = try Self.start()
        defer { server.stop() }
        do {
            let client = try RawHTTPClient(port: server.port)
            try client.send(
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{\"na")
            #expect(Self.eventually { server.liveRequestStates == 1 })
        }  // closed here, mid-upload
        #expect(Self.eventually { server.liveRequestStates == 0 })
        #expect(server.inFlightRequests == 0)
        let client = try RawHTTPClient(port: server.port)
        #expect(try client.get("/hello/still-up").status == 200)
    }

    @Test func gracefulStopFinishesTheRequestInFlight() throws {
        let server = try Self.start()
        let result = Mutex<Int?>(nil)
        let answered = DispatchSemaphore(value: 0)
        let stopped = DispatchSemaphore(value: 0)
        let port = server.port
        DispatchQueue.global().async {
            let status = try? RawHTTPClient(port: port).get("/slow")
            result.withLock { $0 = status.map { $0.status } }
            answered.signal()
        }
        #expect(Self.eventually { server.inFlightRequests == 1 })
        DispatchQueue.global().async {
            server.stop(gracePeriod: 10)
            stopped.signal()
        }
        // Once the listener is closed, the stop has begun with the request still held: release it.
        #expect(Self.eventually { (try? RawHTTPClient(port: port)) == nil })
        #expect(server.inFlightRequests == 1)
        Self.slowGate.signal()
        #expect(answered.wait(timeout: .now() + 10) == .success)
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        #expect(result.withLock { $0 } == 200)
        server.stop()  // idempotent
    }

    @Test func ipv6Loopback() throws {
        let server = try Self.start { $0.host = "::1" }
        defer { server.stop() }
        let client = try RawHTTPClient(host: "::1", port: server.port)
        #expect(try client.get("/hello/six").text == "hello six from ::1")
    }

    @Test func invalidConfigurationIsRefused() {
        #expect(throws: HTTPServerError.invalidAddress("localhost")) { try Self.start { $0.host = "localhost" } }
        #expect(throws: HTTPServerError.invalidPort(70000)) { try Self.start { $0.port = 70000 } }
        #expect(throws: HTTPServerError.invalidLimit("maxBodyBytes")) { try Self.start { $0.limits.maxBodyBytes = 0 } }
        #expect(throws: HTTPServerError.invalidLimit("threads")) { try Self.start { $0.threads = 0 } }
    }

    @Test func portInUseFailsClearly() throws {
        let server = try Self.start()
        defer { server.stop() }
        let port = server.port
        let error = #expect(throws: HTTPServerError.self) { try Self.start { $0.port = port } }
        guard case .startFailed = error else {
            Issue.record("expected startFailed, got \(String(describing: error))")
            return
        }
    }

    @Test func singleThreadServerWorks() throws {
        let server = try Self.start { $0.threads = 1 }
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        #expect(try client.get("/hello/one").status == 200)
        #expect(try client.get("/hello/two").status == 200)
    }

    @Test func tlsWithABadKeyFailsToStart() {
        let error = #expect(throws: HTTPServerError.self) {
            try Self.start {
                $0.tls = TLSConfiguration(certificatePEM: TestTLSFixture.certificatePEM, privateKeyPEM: "not a key")
            }
        }
        guard case .startFailed = error else {
            Issue.record("expected startFailed, got \(String(describing: error))")
            return
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
    func tlsRoundTripWithCurl() throws {
        let server = try Self.start {
            $0.tls = TLSConfiguration(
                certificatePEM: TestTLSFixture.certificatePEM, privateKeyPEM: TestTLSFixture.privateKeyPEM)
        }
        defer { server.stop() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-sk", "--max-time", "10", "https://127.0.0.1:\(server.port)/hello/tls"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text == "hello tls from 127.0.0.1")
        // Plain HTTP on the TLS port gets no HTTP answer.
        let plain = try RawHTTPClient(port: server.port)
        #expect((try? plain.get("/hello/plain")) == nil)
    }
}
