import Foundation

/// Checks the values the client commands take; each failure is a `UsageError` naming the option.
enum ClientArguments {
    /// A server URL reduced to `scheme://host[:port]`: http or https, a host, no path beyond
    /// "/", no query, fragment or user info.
    static func server(_ text: String, option: String = "server") throws(UsageError) -> String {
        guard let origin = webOrigin(text) else {
            throw UsageError("--\(option) '\(text)' must be http(s)://host[:port], e.g. http://localhost:8080")
        }
        return origin
    }

    /// The origin the software authenticator reports: a web origin (`http(s)://host[:port]`) or an
    /// Android app origin (`android:apk-key-hash:…`).
    static func origin(_ text: String) throws(UsageError) -> String {
        if text.hasPrefix("android:apk-key-hash:"), text.count > "android:apk-key-hash:".count {
            return text
        }
        guard let origin = webOrigin(text) else {
            throw UsageError(
                "--origin '\(text)' must be http(s)://host[:port] or android:apk-key-hash:HASH")
        }
        return origin
    }

    /// An email address: something before and after one '@', no spaces.
    static func email(_ text: String) throws(UsageError) -> String {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty }), !text.contains(where: \.isWhitespace) else {
            throw UsageError("--email '\(text)' is not an email address")
        }
        return text
    }

    /// A passkey name for `passkeys rename`: 1 to 100 characters, as the server allows.
    static func passkeyName(_ text: String) throws(UsageError) -> String {
        guard (1...100).contains(text.count) else {
            throw UsageError("NAME must be 1 to 100 characters")
        }
        return text
    }

    /// `scheme://host[:port]` of an http(s) URL with nothing else in it, nil otherwise.
    static func webOrigin(_ text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
            components.user == nil, components.password == nil, components.query == nil,
            components.fragment == nil, components.path.isEmpty || components.path == "/"
        else { return nil }
        let hostPart = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host.lowercased()
        guard let port = components.port else { return "\(scheme)://\(hostPart)" }
        let isDefault = (scheme == "http" && port == 80) || (scheme == "https" && port == 443)
        return isDefault ? "\(scheme)://\(hostPart)" : "\(scheme)://\(hostPart):\(port)"
    }
}
