import Foundation
import Testing

@testable import SesameHTTP

/// libmicrohttpd's refusals reach Swift through one gate, and nothing it refuses is sent half-made.
@Suite("The libmicrohttpd gate")
struct MicroHTTPDGateTests {
    @Test func aHeaderItRefusesIsAnErrorNotADroppedHeader() throws {
        let response = try MHDResponse(body: Array("ok".utf8))
        try response.add(header: "Content-Security-Policy", value: "default-src 'none'")
        // libmicrohttpd refuses an empty value; the caller learns it instead of sending without it.
        #expect(throws: MicroHTTPDError.header("X-Empty")) { try response.add(header: "X-Empty", value: "") }
        #expect(!MHDResponse.isSettable("X-Empty", ""), "so the connection never offers it one")
    }

    @Test func aPortInUseSaysWhy() throws {
        let first = try HTTPServer(
            configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0), router: Router(),
            log: RequestLog(level: .error, sink: { _ in }))
        defer { first.stop(gracePeriod: 0) }
        #expect {
            _ = try HTTPServer(
                configuration: HTTPServer.Configuration(host: "127.0.0.1", port: first.port), router: Router(),
                log: RequestLog(level: .error, sink: { _ in }))
        } throws: { error in
            guard case HTTPServerError.startFailed(let message) = error else { return false }
            return message.hasPrefix("libmicrohttpd could not listen on 127.0.0.1:\(first.port): ")
        }
    }
}
