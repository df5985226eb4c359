import Foundation
import SesameCrypto
import SesameStore
import SesameWire

/// An HIBP-style k-anonymity range endpoint (`GET <url><first five hex digits of SHA-1>`, lines of
/// `SUFFIX:COUNT`). SesameHTTP has the one that asks over HTTP; tests use a fake.
public protocol PasswordRangeLookup: Sendable {
    /// The suffixes (35 upper-case hex digits) the endpoint lists for `prefix`, with their counts.
    /// Throws when the endpoint cannot be asked; the caller then relies on the offline corpus.
    func suffixes(url: String, prefix: String) throws -> [String: Int]
}

/// Where a breached password is looked for (Auth0's stages).
enum BreachStage {
    case login
    case signup
    case changePassword
}

/// Breached-password detection (Auth0's attack protection, docs/passwords.md).
struct BreachDetection: Sendable {
    /// Passwords that count as breached whatever the corpus says, so every path can be tested
    /// offline (as Auth0 does): anything starting with this prefix, and Auth0's two fixed ones.
    static let testPrefix = "AUTH0-TEST-"
    static let testPasswords: Set<String> = ["Paaf213XXYYZZ", "Paat739!!WWXXYYZZ"]

    let ranges: (any PasswordRangeLookup)?

    /// Whether `password` is breached by the tenant's settings (false while detection is off).
    func isBreached(_ password: PasswordText, settings: BreachedPasswordSettings) -> Bool {
        guard settings.enabled else { return false }
        if password.text.hasPrefix(Self.testPrefix) || Self.testPasswords.contains(password.text) { return true }
        if BreachedCorpus.contains(password.text) { return true }
        guard settings.method == .enhanced, let url = settings.rangeURL, let ranges else { return false }
        let digest = Digest.hash(password.bytes, with: .legacySHA1).map { String(format: "%02X", $0) }.joined()
        guard digest.count == 40 else { return false }
        // An endpoint that cannot be asked leaves the offline corpus's answer (documented).
        guard let listed = try? ranges.suffixes(url: url, prefix: String(digest.prefix(5))) else { return false }
        return (listed[String(digest.dropFirst(5))] ?? 0) > 0
    }

    /// Whether a breached password is refused at `stage`.
    static func blocks(_ settings: BreachedPasswordSettings, at stage: BreachStage) -> Bool {
        switch stage {
        case .login: return settings.shields.contains(.block)
        case .signup: return settings.signupShields.contains(.block)
        case .changePassword: return settings.changePasswordShields.contains(.block)
        }
    }
}
