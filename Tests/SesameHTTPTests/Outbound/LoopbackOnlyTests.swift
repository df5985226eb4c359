import SesameHTTP
import SesameTesting
import Testing

/// A test server's outbound HTTP reaches loopback fakes only (`TestSesame`).
@Suite("Loopback-only outbound HTTP in tests")
struct LoopbackOnlyTests {
    @Test(arguments: [
        "https://appleid.apple.com/auth/keys", "https://api.pwnedpasswords.com/range/", "http://10.0.0.1/keys",
        "not a url",
    ])
    func aURLOutsideLoopbackIsRefusedWithItsName(url: String) {
        #expect(throws: LoopbackOnlyError.self) { _ = try LoopbackAppleEndpoints().keys(url: url) }
        #expect(throws: LoopbackOnlyError.self) { _ = try LoopbackAppleEndpoints().post(url: url, form: []) }
        #expect(throws: LoopbackOnlyError.self) { _ = try LoopbackRangeLookup().suffixes(url: url, prefix: "ABCDE") }
        #expect(LoopbackOnlyError(url: url).description.contains(url))
    }

    /// The one loopback rule the outbound clients (Apple's endpoints, the audit webhook) and the
    /// test servers share.
    @Test func theLoopbackRuleNamesThisMachineOnly() {
        for host in ["localhost", "LOCALHOST", "127.0.0.1", "127.10.0.2", "::1", "[::1]"] {
            #expect(IPAddressRange.isLoopbackHost(host), "\(host)")
        }
        for host in ["example.com", "127.0.0", "127.0.0.256", "128.0.0.1", "::2", "localhost.example.com", ""] {
            #expect(!IPAddressRange.isLoopbackHost(host), "\(host)")
        }
    }
}
