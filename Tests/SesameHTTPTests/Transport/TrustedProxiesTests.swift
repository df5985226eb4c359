import Testing

@testable import SesameHTTP

@Suite("Trusted proxies and address blocks")
struct TrustedProxiesTests {
    @Test func cidrMembership() throws {
        let block = try #require(IPAddressRange("10.1.0.0/16"))
        #expect(block.contains("10.1.255.3"))
        #expect(!block.contains("10.2.0.1"))
        #expect(block.contains("::ffff:10.1.0.9"))  // IPv4-mapped
        let v6 = try #require(IPAddressRange("fd00::/8"))
        #expect(v6.contains("fd12::1"))
        #expect(!v6.contains("fe80::1"))
        #expect(!v6.contains("10.1.0.1"))
        #expect(try #require(IPAddressRange("::1")).contains("[::1]"))
        #expect(try #require(IPAddressRange("10.1.2.3/16")).description == "10.1.0.0/16")
    }

    @Test func invalidEntriesAreRejected() {
        #expect(IPAddressRange("10.0.0.0/33") == nil)
        #expect(IPAddressRange("example.com") == nil)
        #expect(IPAddressRange("10.0.0.0/") == nil)
        #expect(throws: HTTPServerError.invalidTrustedProxy("nope")) { try TrustedProxies(["127.0.0.1", "nope"]) }
    }

    @Test func rightmostUntrustedHopIsTheClient() throws {
        let proxies = try TrustedProxies(["10.0.0.0/8", "::1"])
        let headers: HTTPHeaders = [
            "X-Forwarded-For": "1.1.1.1, 203.0.113.5", "x-forwarded-for": "10.9.9.9",
        ]
        let origin = proxies.resolve(peer: "::1", connectionScheme: "http", headers: headers)
        #expect(origin.clientIP == "203.0.113.5")  // 1.1.1.1 was written by the client itself: not believed
    }

    @Test func allTrustedChainEndsAtTheLeftmost() throws {
        let proxies = try TrustedProxies(["10.0.0.0/8"])
        let origin = proxies.resolve(
            peer: "10.0.0.1", connectionScheme: "http", headers: ["X-Forwarded-For": "10.0.0.3, 10.0.0.2"])
        #expect(origin.clientIP == "10.0.0.3")
    }

    @Test func garbageHopStopsTheChain() throws {
        let proxies = try TrustedProxies(["10.0.0.0/8"])
        let origin = proxies.resolve(
            peer: "10.0.0.1", connectionScheme: "http", headers: ["X-Forwarded-For": "203.0.113.1, junk, 10.0.0.2"])
        #expect(origin.clientIP == "10.0.0.2")
    }

    @Test func untrustedPeerHeadersAreIgnored() throws {
        let proxies = try TrustedProxies(["10.0.0.0/8"])
        let origin = proxies.resolve(
            peer: "192.0.2.1", connectionScheme: "http",
            headers: [
                "Host": "a.example:443", "X-Forwarded-For": "1.2.3.4", "X-Forwarded-Proto": "https",
                "X-Forwarded-Host": "evil.example",
            ])
        #expect(origin == TrustedProxies.Origin(clientIP: "192.0.2.1", scheme: "http", host: "a.example"))
    }

    @Test func unknownForwardedProtoIsIgnored() throws {
        let proxies = try TrustedProxies(["10.0.0.1"])
        let origin = proxies.resolve(
            peer: "10.0.0.1", connectionScheme: "http", headers: ["X-Forwarded-Proto": "gopher"])
        #expect(origin.scheme == "http")
    }

    @Test func hostWithoutPort() {
        #expect(HTTPRequest.hostWithoutPort("Example.COM:8443") == "example.com")
        #expect(HTTPRequest.hostWithoutPort("[::1]:8080") == "[::1]")
        #expect(HTTPRequest.hostWithoutPort("example.com") == "example.com")
    }

    @Test func queryItemsDecode() {
        let request = HTTPRequest(method: .get, target: "/x?a=1&b=two+words&c=%C3%A9&flag&bad=%zz&a=2")
        #expect(request.path == "/x")
        #expect(request.rawQuery == "a=1&b=two+words&c=%C3%A9&flag&bad=%zz&a=2")
        #expect(request.queryItems.map(\.name) == ["a", "b", "c", "flag", "a"])
        #expect(request.query("b") == "two words")
        #expect(request.query("c") == "é")
        #expect(request.query("a") == "1")
        #expect(request.headers["missing"] == nil)
    }

    @Test func headersAreCaseInsensitive() {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        headers.add(name: "X-A", value: "1")
        headers.add(name: "x-a", value: "2")
        #expect(headers["content-type"] == "application/json")
        #expect(headers.values(for: "X-a") == ["1", "2"])
        headers.replaceOrAdd(name: "X-A", value: "3")
        #expect(headers.values(for: "x-A") == ["3"])
    }
}
