import Foundation
import SesameHTTP
import SesameService

/// The outbound HTTP of a test server: real requests, to loopback fakes only. A URL anywhere else
/// is refused with a message that names it, so a test that forgot a fake fails loudly rather than
/// reaching the network.
enum LoopbackOnly {
    static func check(_ url: String) throws {
        guard let host = URLComponents(string: url)?.host?.lowercased(), IPAddressRange.isLoopbackHost(host) else {
            throw LoopbackOnlyError(url: url)
        }
    }
}

/// A test reached for a URL outside loopback.
public struct LoopbackOnlyError: Error, CustomStringConvertible {
    public let url: String
    public init(url: String) { self.url = url }
    public var description: String { "a test server reaches loopback only; give the test a fake for \(url)" }
}

/// Apple's endpoints over HTTP, on loopback only (the fake Apple ID service).
public struct LoopbackAppleEndpoints: AppleEndpoints {
    private let http = HTTPAppleEndpoints()

    public init() {}

    public func keys(url: String) throws -> [UInt8] {
        try LoopbackOnly.check(url)
        return try http.keys(url: url)
    }

    public func post(url: String, form: [(String, String)]) throws -> (status: Int, body: [UInt8]) {
        try LoopbackOnly.check(url)
        return try http.post(url: url, form: form)
    }
}

/// A breached-password range endpoint over HTTP, on loopback only.
public struct LoopbackRangeLookup: PasswordRangeLookup {
    private let http = HTTPRangeLookup()

    public init() {}

    public func suffixes(url: String, prefix: String) throws -> [String: Int] {
        try LoopbackOnly.check(url)
        return try http.suffixes(url: url, prefix: prefix)
    }
}
