import Foundation
import SesameCrypto
import SesameStore
import WebAuthn

/// Verifies compact JWS tokens Sesame signed: strict parsing, an algorithm allow-list bound to
/// each key, signature, then the registered claims at an injected time.
///
/// Order of checks: shape → header (`alg` allowed and never `none`, no `crit`, `kid` known, `alg`
/// equal to the key's) → signature → `exp` (required), `nbf`, `iat` → `iss` → `aud` → `typ`.
public struct JWTVerifier: Sendable {
    /// Tokens longer than this are refused before any parsing.
    public static let maximumTokenLength = 16 * 1024

    private let keys: [String: JWTVerificationKey]
    private let allowedAlgorithms: Set<JWTAlgorithm>

    /// A verifier over the published keys of one tenant. A later key with a duplicate `kid` is ignored.
    public init(keys: [JWTVerificationKey], allowedAlgorithms: Set<JWTAlgorithm> = Set(JWTAlgorithm.allCases)) {
        var byID: [String: JWTVerificationKey] = [:]
        for key in keys where byID[key.keyID] == nil { byID[key.keyID] = key }
        self.keys = byID
        self.allowedAlgorithms = allowedAlgorithms
    }

    /// The key ids this verifier knows.
    public var keyIDs: Set<String> { Set(keys.keys) }

    /// Verifies `token` and returns its header and claims, or throws the first check that failed.
    public func verify(_ token: String, expecting expected: JWTExpectations) throws(JWTError) -> VerifiedJWT {
        let parts = try CompactJWS(token)
        let header = try parts.header()
        let algorithm = try checkAlgorithm(header["alg"])
        if header["crit"] != nil { throw .unsupportedCriticalHeader }
        guard let keyID = header["kid"]?.stringValue, let key = keys[keyID] else { throw .unknownKey }
        guard key.algorithm == algorithm else {
            throw .algorithmMismatch(header: algorithm.rawValue, key: key.algorithm.rawValue)
        }
        let valid: Bool
        do {
            valid = try key.publicKey.isValidSignature(
                parts.signature, for: parts.signingInput, algorithm: algorithm.signatureAlgorithm, format: .raw)
        } catch {
            valid = false
        }
        guard valid else { throw .invalidSignature }

        let claims = try parts.claims()
        try Self.checkTimes(claims, expected)
        guard case .string(let issuer)? = claims["iss"] else { throw .invalidClaim("iss is missing") }
        guard issuer == expected.issuer else { throw .wrongIssuer }
        let accepted = [expected.audience] + expected.alternativeAudiences
        switch claims["aud"] {
        case .string(let audience)?:
            guard accepted.contains(audience) else { throw .wrongAudience }
        case .array?:
            guard let audiences = claims["aud"]?.stringsValue else { throw .invalidClaim("aud holds a non-string") }
            guard audiences.contains(where: accepted.contains) else { throw .wrongAudience }
        default:
            throw .invalidClaim("aud is missing")
        }
        let type: String?
        switch header["typ"] {
        case nil: type = nil
        case .string(let text)?: type = text
        default: throw .malformed("typ is not a string")
        }
        if let required = expected.type, !Self.typeMatches(type, required) {
            throw .wrongType(expected: required.rawValue)
        }
        return VerifiedJWT(algorithm: algorithm, keyID: keyID, type: type, claims: claims, payload: parts.payload)
    }

    private func checkAlgorithm(_ value: JWTClaimValue?) throws(JWTError) -> JWTAlgorithm {
        guard case .string(let name)? = value else { throw .unsupportedAlgorithm("(missing)") }
        // JWTAlgorithm has no `none` and no HMAC case, so those never get past this line.
        guard let algorithm = JWTAlgorithm(rawValue: name), allowedAlgorithms.contains(algorithm) else {
            throw .unsupportedAlgorithm(Self.printable(name))
        }
        return algorithm
    }

    private static func checkTimes(_ claims: [String: JWTClaimValue], _ expected: JWTExpectations) throws(JWTError) {
        let now = expected.now.timeIntervalSince1970
        guard let exp = claims["exp"] else { throw .invalidClaim("exp is missing") }
        guard case .int(let expires) = exp else { throw .invalidClaim("exp is not an integer NumericDate") }
        guard now < TimeInterval(expires) + expected.leeway else { throw .expired }
        for name in ["nbf", "iat"] {
            guard let value = claims[name] else { continue }
            guard case .int(let seconds) = value else { throw .invalidClaim("\(name) is not an integer NumericDate") }
            guard TimeInterval(seconds) <= now + expected.leeway else { throw .notYetValid }
        }
    }

    /// RFC 9068 §4: "at+jwt", compared case-insensitively, optionally with the "application/" prefix.
    private static func typeMatches(_ type: String?, _ required: JWTType) -> Bool {
        let lowered = type?.lowercased()
        switch required {
        case .accessToken: return lowered == "at+jwt" || lowered == "application/at+jwt"
        case .idToken: return lowered == nil || lowered == "jwt" || lowered == "application/jwt"
        }
    }

    /// At most 16 printable ASCII characters of attacker-chosen text, for error messages.
    static func printable(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.prefix(16).filter { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }))
    }
}

/// The three parts of a compact JWS, split and base64url-decoded strictly.
struct CompactJWS {
    /// ASCII bytes of header "." payload, as signed.
    let signingInput: [UInt8]
    let headerJSON: [UInt8]
    let payload: [UInt8]
    let signature: [UInt8]

    init(_ token: String) throws(JWTError) {
        let bytes = Array(token.utf8)
        guard bytes.count <= JWTVerifier.maximumTokenLength else { throw .malformed("the token is too long") }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("a compact JWS has exactly three parts") }
        headerJSON = try Self.decode(parts[0], "header")
        payload = try Self.decode(parts[1], "payload")
        signature = try Self.decode(parts[2], "signature")
        signingInput = Array(bytes.prefix(parts[0].count + 1 + parts[1].count))
    }

    /// Unpadded base64url only (RFC 7515 §2): no `=`, no whitespace, nothing empty.
    private static func decode(_ part: ArraySlice<UInt8>, _ name: String) throws(JWTError) -> [UInt8] {
        guard !part.isEmpty, !part.contains(UInt8(ascii: "=")) else {
            throw .malformed("the \(name) is not unpadded base64url")
        }
        do {
            return try Base64URL.decode(part)
        } catch {
            throw .malformed("the \(name) is not unpadded base64url")
        }
    }

    func header() throws(JWTError) -> [String: JWTClaimValue] {
        try Self.object(headerJSON, "header")
    }

    func claims() throws(JWTError) -> [String: JWTClaimValue] {
        try Self.object(payload, "payload")
    }

    private static func object(_ json: [UInt8], _ name: String) throws(JWTError) -> [String: JWTClaimValue] {
        guard json.first == UInt8(ascii: "{") else { throw .malformed("the \(name) is not a JSON object") }
        // The core's strict reader, not Foundation's: duplicate members are refused (RFC 7519 §4),
        // and a DPoP proof is checked on every renewal, so this is on the refresh path.
        guard let value = try? JSONReader.parse(json, limits: .requestBody), case .object(let members) = value,
            case .object(let claims)? = JWTClaimValue(json: .object(members))
        else {
            throw .malformed("the \(name) is not a JSON object of strings, integers, booleans, arrays and objects")
        }
        return claims
    }
}
