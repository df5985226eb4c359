import Foundation
import SesameStore

/// Value checks shared by the Management API's inputs; every error names the field (and index).
enum ManagementValidation {
    /// Display text by `TextRules.text`: NFC, 1–`max` characters, nothing unsafe.
    static func text(_ value: String, _ field: String, max: Int = 255) throws(ServiceError) -> String {
        try TextRules.text(value, field, max: max)
    }

    /// One of `allowed`.
    static func oneOf(_ value: String, _ field: String, _ allowed: [String]) throws(ServiceError) -> String {
        guard allowed.contains(value) else {
            throw .invalidRequest("\(field) must be one of \(allowed.joined(separator: ", "))")
        }
        return value
    }

    /// A case of a stored vocabulary, by its wire value; the error lists every case.
    static func oneOf<Value: RawRepresentable & CaseIterable>(
        _ value: String, _ field: String, as type: Value.Type
    ) throws(ServiceError) -> Value where Value.RawValue == String {
        guard let parsed = Value(rawValue: value) else {
            throw .invalidRequest("\(field) must be one of \(names(Value.self))")
        }
        return parsed
    }

    /// The wire values of a vocabulary, comma-separated.
    static func names<Value: RawRepresentable & CaseIterable>(_ type: Value.Type) -> String
    where Value.RawValue == String {
        Value.allCases.map(\.rawValue).joined(separator: ", ")
    }

    /// A list of at most `max` items, each checked by `check` with its index in the field name.
    static func list(
        _ values: [String], _ field: String, max: Int = 100, _ check: (String, String) throws(ServiceError) -> String
    ) throws(ServiceError) -> [String] {
        guard values.count <= max else { throw .invalidRequest("\(field) holds at most \(max) values") }
        var out: [String] = []
        for (index, value) in values.enumerated() {
            let checked = try check(value, "\(field)[\(index)]")
            if !out.contains(checked) { out.append(checked) }
        }
        return out
    }

    /// A web origin, `scheme://host[:port]`, nothing else; returned normalised (lowercase, no default port).
    static func origin(_ value: String, _ field: String) throws(ServiceError) -> String {
        guard value.utf8.count <= 2_048, let components = URLComponents(string: value),
            let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
            components.host.map({ !$0.isEmpty }) == true, components.path.isEmpty || components.path == "/",
            components.query == nil, components.fragment == nil, components.user == nil,
            let origin = Origins.origin(of: value)
        else {
            throw .invalidRequest("\(field) is not an origin (http(s)://host[:port] with no path)")
        }
        return origin
    }

    /// A callback URL: absolute, with a scheme (custom schemes allowed for native apps), no fragment.
    static func callback(_ value: String, _ field: String) throws(ServiceError) -> String {
        if let scheme = RedirectScheme.refusedScheme(value) {
            throw .invalidRequest("\(field) uses the \(scheme): scheme, which is never a redirect target")
        }
        guard value.utf8.count <= 2_048, let components = URLComponents(string: value),
            let scheme = components.scheme, !scheme.isEmpty, components.fragment == nil,
            !value.contains(where: { $0.isWhitespace })
        else {
            throw .invalidRequest("\(field) is not an absolute URL without a fragment")
        }
        if scheme.lowercased() == "http" || scheme.lowercased() == "https" {
            guard components.host.map({ !$0.isEmpty }) == true else {
                throw .invalidRequest("\(field) is not an absolute URL without a fragment")
            }
        }
        return value
    }

    /// A DNS host name: lowercase labels of letters, digits and hyphens, 1–253 characters.
    static func hostname(_ value: String, _ field: String) throws(ServiceError) -> String {
        let host = value.lowercased()
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            !host.isEmpty && host.utf8.count <= 253
            && labels.allSatisfy { label in
                !label.isEmpty && label.utf8.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                    && label.utf8.allSatisfy { isLowerAlnum($0) || $0 == UInt8(ascii: "-") }
            }
        guard valid else { throw .invalidRequest("\(field) is not a host name") }
        return host
    }

    /// Apple team id: 10 uppercase letters or digits.
    static func teamID(_ value: String, _ field: String) throws(ServiceError) -> String {
        guard value.utf8.count == 10,
            value.utf8.allSatisfy({ isDigit($0) || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) })
        else {
            throw .invalidRequest("\(field) must be 10 uppercase letters or digits")
        }
        return value
    }

    /// An Apple bundle identifier: reverse-DNS, letters, digits, hyphens, at least two parts.
    static func bundleIdentifier(_ value: String, _ field: String) throws(ServiceError) -> String {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            value.utf8.count <= 155 && parts.count >= 2
            && parts.allSatisfy { part in
                !part.isEmpty
                    && part.utf8.allSatisfy { isAlnum($0) || $0 == UInt8(ascii: "-") }
            }
        guard valid else { throw .invalidRequest("\(field) is not a bundle identifier (e.g. com.example.app)") }
        return value
    }

    /// An Android application id: at least two dot-separated parts, each a letter then letters, digits or `_`.
    static func packageName(_ value: String, _ field: String) throws(ServiceError) -> String {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            value.utf8.count <= 255 && parts.count >= 2
            && parts.allSatisfy { part in
                guard let first = part.utf8.first, isLetter(first) else { return false }
                return part.utf8.allSatisfy { isAlnum($0) || $0 == UInt8(ascii: "_") }
            }
        guard valid else { throw .invalidRequest("\(field) is not an Android package name (e.g. com.example.app)") }
        return value
    }

    /// A SHA-256 certificate fingerprint: 32 colon-separated hex bytes, returned in uppercase.
    static func fingerprint(_ value: String, _ field: String) throws(ServiceError) -> String {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 32,
            parts.allSatisfy({ $0.utf8.count == 2 && $0.utf8.allSatisfy(isHex) }),
            Origins.fingerprintBytes(value) != nil
        else {
            throw .invalidRequest("\(field) is not a SHA-256 fingerprint (32 colon-separated hex bytes)")
        }
        return value.uppercased()
    }

    /// An integer within `range`.
    static func bounded(_ value: Int, _ field: String, _ range: ClosedRange<Int>) throws(ServiceError) -> Int {
        guard range.contains(value) else {
            throw .invalidRequest("\(field) must be from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
    private static func isAlnum(_ byte: UInt8) -> Bool { isDigit(byte) || isLetter(byte) }
    private static func isLowerAlnum(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
    }
    private static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }
}
