import Foundation
import SesameCrypto
import SesameStore
import WebAuthn

/// What the HTTP layer tells the services about a request for DPoP (RFC 9449): the `DPoP` header
/// values, the method, and the URIs the client may have addressed (without query or fragment).
public struct DPoPRequest: Sendable, Equatable {
    /// Every `DPoP` header value (more than one is refused).
    public var proofs: [String]
    /// The HTTP method, e.g. `POST`.
    public var method: String
    /// `scheme://host[:port]/path` the request may have been sent to: the tenant's public URL and
    /// the URL the request arrived at.
    public var targets: [String]

    public init(proofs: [String], method: String, targets: [String]) {
        self.proofs = proofs
        self.method = method
        self.targets = targets
    }

    /// A request without DPoP.
    public static let none = DPoPRequest(proofs: [], method: "", targets: [])
}

/// An access token as a request presented it. The HTTP layer reads the `Authorization` scheme;
/// the services never see header syntax.
public enum PresentedToken: Sendable, Equatable {
    /// `Authorization: Bearer <token>` (RFC 6750).
    case bearer(String)
    /// `Authorization: DPoP <token>` with what the request carries for its proof (RFC 9449 §7).
    case dpop(String, DPoPRequest)
}

/// A proof that passed every check: the thumbprint of its key (`cnf.jkt`).
public struct DPoPProof: Sendable, Equatable {
    /// Base64url SHA-256 JWK thumbprint (RFC 7638) of the proof's key.
    public let thumbprint: String
    /// What the replay cache holds for it: SHA-256 of thumbprint and jti.
    let replayKey: [UInt8]
}

/// Why a proof was refused; the caller turns it into the token endpoint's or an API's error.
enum DPoPFailure: Error, Equatable {
    /// The proof is missing where required, malformed, or fails a check (the text says which).
    case invalid(String)
    /// The server requires its nonce and the proof lacks it, or carries an old one.
    case nonceRequired
}

/// Checks DPoP proofs (RFC 9449 §4.3) and makes and checks the server's nonces (§8).
///
/// Nonces are stateless: the window number (5 minutes each) and an HMAC of it under a key
/// derived from the master key, so every process sharing the master key accepts them. The
/// current and the previous window are accepted.
public struct DPoPVerifier: Sendable {
    /// The proof algorithms accepted (and listed as `dpop_signing_alg_values_supported`).
    public static let algorithms: [JWTAlgorithm] = [.es256, .edDSA, .rs256]
    /// `algs` of the `WWW-Authenticate: DPoP` challenge.
    public static let algorithmNames = algorithms.map(\.rawValue).joined(separator: " ")
    /// A proof's `iat` may be this many seconds in the past…
    public static let maximumAge: TimeInterval = 300
    /// …or this many in the future (clock skew).
    public static let maximumSkew: TimeInterval = 60
    /// Proofs longer than this are refused before parsing (an RSA-4096 JWK fits easily).
    public static let maximumLength = 8_192
    /// Seconds per nonce window.
    public static let nonceWindow: TimeInterval = 300

    /// Whether every proof must carry the server's current nonce.
    public let requireNonce: Bool
    private let nonceKey: [UInt8]

    public init(nonceKey: [UInt8], requireNonce: Bool = false) {
        self.nonceKey = nonceKey
        self.requireNonce = requireNonce
    }

    /// The nonce to hand out at `now`.
    public func nonce(at now: Date) -> String {
        nonce(window: Self.window(now))
    }

    /// Verifies the request's proof. Nil when the request carries none; throws when it carries a
    /// bad one, or more than one. `accessToken` is the token presented with it (its hash must be
    /// the proof's `ath`); nil at the token endpoint, where `ath` must be absent.
    func verify(_ request: DPoPRequest, accessToken: String?, now: Date) throws(DPoPFailure) -> DPoPProof? {
        guard let text = request.proofs.first else { return nil }
        guard request.proofs.count == 1 else { throw .invalid("send one DPoP header") }
        guard text.utf8.count <= Self.maximumLength else { throw .invalid("the DPoP proof is too long") }
        let parts: CompactJWS
        let header: [String: JWTClaimValue]
        let claims: [String: JWTClaimValue]
        do {
            parts = try CompactJWS(text)
            header = try parts.header()
            claims = try parts.claims()
        } catch {
            throw .invalid("the DPoP proof is not a JWS: \(error)")
        }
        guard header["typ"]?.stringValue?.lowercased() == "dpop+jwt" else {
            throw .invalid("the DPoP proof's typ must be dpop+jwt")
        }
        guard let algorithmName = header["alg"]?.stringValue,
            let algorithm = JWTAlgorithm(rawValue: algorithmName), Self.algorithms.contains(algorithm)
        else {
            throw .invalid("the DPoP proof's alg must be one of \(Self.algorithmNames)")
        }
        if header["crit"] != nil { throw .invalid("the DPoP proof has a crit header") }
        guard case .object(let members)? = header["jwk"] else { throw .invalid("the DPoP proof has no jwk") }
        let key = try Self.publicKey(members, algorithm: algorithm)
        let valid: Bool
        do {
            valid = try key.isValidSignature(
                parts.signature, for: parts.signingInput, algorithm: algorithm.signatureAlgorithm, format: .raw)
        } catch {
            valid = false
        }
        guard valid else { throw .invalid("the DPoP proof's signature does not verify with its jwk") }

        guard let jti = claims["jti"]?.stringValue, (1...256).contains(jti.utf8.count) else {
            throw .invalid("the DPoP proof needs a jti of 1 to 256 bytes")
        }
        guard claims["htm"]?.stringValue == request.method else {
            throw .invalid("the DPoP proof's htm is not this request's method")
        }
        guard let htu = claims["htu"]?.stringValue, let target = Self.normalizedURI(htu),
            request.targets.compactMap(Self.normalizedURI).contains(target)
        else {
            throw .invalid("the DPoP proof's htu is not this request's URI")
        }
        guard case .int(let issuedAt)? = claims["iat"] else { throw .invalid("the DPoP proof needs an integer iat") }
        let age = now.timeIntervalSince1970 - TimeInterval(issuedAt)
        guard age <= Self.maximumAge, age >= -Self.maximumSkew else {
            throw .invalid("the DPoP proof's iat is too far from the server's time")
        }
        switch (accessToken, claims["ath"]) {
        case (nil, nil): break
        case (nil, .some): throw .invalid("a DPoP proof for the token endpoint has no ath")
        case (.some(let token), let ath):
            let expected = Base64URL.encode(Digest.sha256(Array(token.utf8)))
            guard let ath = ath?.stringValue, constantTimeEquals(Array(ath.utf8), Array(expected.utf8)) else {
                throw .invalid("the DPoP proof's ath is not the hash of this access token")
            }
        }
        if requireNonce {
            guard let nonce = claims["nonce"]?.stringValue, isCurrent(nonce, now: now) else { throw .nonceRequired }
        }
        let thumbprint = Base64URL.encode(JWKThumbprint.sha256(key.components))
        return DPoPProof(
            thumbprint: thumbprint, replayKey: Digest.sha256(Array((thumbprint + "\n" + jti).utf8)))
    }

    /// The proof's public key: a public JWK (no private member) of the type `algorithm` needs.
    static func publicKey(_ members: [String: JWTClaimValue], algorithm: JWTAlgorithm) throws(DPoPFailure) -> PublicKey
    {
        func member(_ name: String) -> String? { members[name]?.stringValue }
        let jwk = JWK(
            kty: member("kty") ?? "", crv: member("crv"), x: member("x"), y: member("y"), n: member("n"),
            e: member("e"),
            d: member("d"), p: member("p"), q: member("q"), dp: member("dp"), dq: member("dq"), qi: member("qi"))
        guard !jwk.hasPrivateMembers else { throw .invalid("the DPoP proof's jwk holds a private key") }
        let expected: String
        switch algorithm {
        case .es256:
            expected = "EC"
            guard jwk.crv == "P-256" else { throw .invalid("an ES256 DPoP key must be on P-256") }
        case .edDSA:
            expected = "OKP"
            guard jwk.crv == "Ed25519" else { throw .invalid("an EdDSA DPoP key must be Ed25519") }
        case .rs256: expected = "RSA"
        }
        guard jwk.kty == expected else { throw .invalid("the DPoP proof's jwk is not an \(expected) key") }
        do {
            return try PublicKey(jwk: jwk)
        } catch {
            throw .invalid("the DPoP proof's jwk is not a usable public key")
        }
    }

    /// RFC 3986 §6 normalisation for comparing `htu`: lowercase scheme and host, no default
    /// port, no query or fragment, an empty path as `/`. Nil for anything but http(s).
    static func normalizedURI(_ text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "https" || scheme == "http", let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        var result = scheme + "://" + host
        if let port = components.port, !(scheme == "https" && port == 443), !(scheme == "http" && port == 80) {
            result += ":\(port)"
        }
        let path = components.percentEncodedPath
        return result + (path.isEmpty ? "/" : path)
    }

    private static func window(_ date: Date) -> UInt64 {
        UInt64(max(0, date.timeIntervalSince1970 / nonceWindow))
    }

    private func nonce(window: UInt64) -> String {
        let counter = (0..<8).map { UInt8(truncatingIfNeeded: window >> (56 - 8 * $0)) }
        let mac = HMAC.authenticationCode(for: Array("sesame-dpop-nonce".utf8) + counter, key: nonceKey)
        return Base64URL.encode(counter + mac.prefix(16))
    }

    private func isCurrent(_ nonce: String, now: Date) -> Bool {
        guard nonce.utf8.count <= 64 else { return false }
        let current = Self.window(now)
        return [current, current &- 1].contains {
            constantTimeEquals(Array(self.nonce(window: $0).utf8), Array(nonce.utf8))
        }
    }
}
