import SesameWire

/// The `acr` (authentication context class) of a sign-in, from its RFC 8176 methods. One place
/// decides it, for every grant and the hosted pages, and discovery lists every value.
///
/// - `phrh`: a device-bound passkey with user verification (OpenID EAP ACR Values 1.0:
///   phishing-resistant, hardware-protected).
/// - `phr`: a synced passkey with user verification (phishing-resistant).
/// - Auth0's multi-factor URI: a password or passkey with a second factor.
/// - `urn:sesame:acr:single-factor`: one factor alone (a password, or a passkey without user
///   verification).
public enum AuthenticationContext {
    public static let phishingResistantHardware = "phrh"
    public static let phishingResistant = "phr"
    public static let multiFactor = "http://schemas.openid.net/pape/policies/2007/06/multi-factor"
    public static let singleFactor = "urn:sesame:acr:single-factor"

    /// Every value `acr(amr:)` can give (discovery's `acr_values_supported`).
    public static let all = [phishingResistantHardware, phishingResistant, multiFactor, singleFactor]

    public static func acr(amr: [String]) -> String {
        if amr.contains("mfa") { return multiFactor }
        if amr.contains("pop"), amr.contains("user") {
            return amr.contains("hwk") ? phishingResistantHardware : phishingResistant
        }
        return singleFactor
    }
}

extension SignInMethod {
    /// The `amr` value of a Sign in with Apple sign-in (RFC 8176 registers none for a federated one).
    public static let appleMethod = "apple"

    /// The method a sign-in's RFC 8176 methods name: possession of a passkey (`pop`), a password
    /// (`pwd`), a device key (`hwk` alone); nil for none of them.
    public static func of(amr: [String]) -> SignInMethod? {
        if amr.contains("pop") { return .passkey }
        if amr.contains("pwd") { return .password }
        if amr.contains(appleMethod) { return .apple }
        // A hardware key without a passkey's proof of possession: a legacy device key.
        if amr.contains("hwk") { return .deviceKey }
        return nil
    }
}
