/// An HTTP request method, such as `GET` or `POST`, compared by its exact (case-sensitive) token.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token as it appears on the request line.
    public let rawValue: String

    /// Wraps a method token.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a method token.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The method token.
    public var description: String { rawValue }

    /// `GET`: read a resource.
    public static let get = HTTPMethod("GET")
    /// `HEAD`: a `GET` without the body; served by the `GET` route unless one is registered.
    public static let head = HTTPMethod("HEAD")
    /// `POST`: create or act.
    public static let post = HTTPMethod("POST")
    /// `PUT`: replace a resource.
    public static let put = HTTPMethod("PUT")
    /// `PATCH`: change part of a resource.
    public static let patch = HTTPMethod("PATCH")
    /// `DELETE`: remove a resource.
    public static let delete = HTTPMethod("DELETE")
    /// `OPTIONS`: answered by the router with the allowed methods.
    public static let options = HTTPMethod("OPTIONS")
}
