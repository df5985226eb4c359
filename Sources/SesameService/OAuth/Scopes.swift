/// Scope strings (RFC 6749 §3.3): space-separated, no duplicates, printable ASCII without `"` or `\`.
enum Scopes {
    /// Scopes a user login may ask for without an API audience.
    static let openID = Set(TokenService.openIDScopes)
    /// The default when a login asks for none.
    static let defaultLogin = "openid profile email"
    /// My Account API scopes (audience `<issuer>me/`).
    static let myAccount = MyAccountScope.allCases.map(\.rawValue)

    /// One scope-token: printable ASCII without space, `"` or `\`.
    static func isScopeToken(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.allSatisfy { $0 >= 0x21 && $0 <= 0x7E && $0 != 0x22 && $0 != 0x5C }
    }

    static func parse(_ scope: String?) throws(ServiceError) -> [String] {
        guard let scope, !scope.isEmpty else { return [] }
        guard scope.utf8.count <= 2_048 else { throw .invalidScope("scope is too long") }
        var seen: [String] = []
        for token in scope.split(separator: " ", omittingEmptySubsequences: true) {
            let value = String(token)
            guard value.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E && $0 != 0x22 && $0 != 0x5C }) else {
                throw .invalidScope("scope contains a character RFC 6749 does not allow")
            }
            if !seen.contains(value) { seen.append(value) }
        }
        return seen
    }
}
