/// Why the server could not be configured or started.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The listen address is not an IPv4 or IPv6 literal.
    case invalidAddress(String)
    /// The port is outside 0…65535.
    case invalidPort(Int)
    /// A trusted proxy entry is not an IP address or CIDR block.
    case invalidTrustedProxy(String)
    /// A limit is out of range (named).
    case invalidLimit(String)
    /// TLS was asked for but this libmicrohttpd was built without it.
    case tlsUnsupported
    /// A TLS certificate or key file could not be read as text.
    case tlsFile(String)
    /// libmicrohttpd refused to start (address in use, bad certificate or key, …).
    case startFailed(String)

    /// A one-line explanation for the operator.
    public var description: String {
        switch self {
        case .invalidAddress(let address): "listen address \(address) is not an IPv4 or IPv6 address"
        case .invalidPort(let port): "port \(port) is outside 0...65535"
        case .invalidTrustedProxy(let entry): "trusted proxy \(entry) is not an IP address or CIDR block"
        case .invalidLimit(let name): "limit \(name) is out of range"
        case .tlsUnsupported: "this libmicrohttpd was built without TLS support"
        case .tlsFile(let path): "cannot read TLS file \(path)"
        case .startFailed(let reason): "the HTTP server did not start: \(reason)"
        }
    }
}
