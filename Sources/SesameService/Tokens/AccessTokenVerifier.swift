import Foundation
import SesameCrypto
import SesameStore

/// Checks the access tokens presented to Sesame's APIs (a Bearer token, or a DPoP-bound one with its
/// proof, RFC 9449 §7) and the DPoP proofs of token requests, with the replay cache.
public struct AccessTokenVerifier: Sendable {
    let access: StoreAccess
    let clock: any ServiceClock
    let keyRing: SigningKeyRing
    /// DPoP proof checks and nonces (RFC 9449).
    public let dpop: DPoPVerifier

    /// The token request's DPoP proof, checked and recorded against replay (nil without one).
    func tokenEndpointProof(_ request: DPoPRequest, tenant: TenantRecord) throws(ServiceError) -> DPoPProof? {
        let now = clock.now()
        let proof: DPoPProof?
        do {
            proof = try dpop.verify(request, accessToken: nil, now: now)
        } catch {
            switch error {
            case .invalid(let text): throw .invalidDPoPProof(text)
            case .nonceRequired:
                throw .useDPoPNonce("the DPoP proof must carry the server's nonce", nonce: dpop.nonce(at: now))
            }
        }
        guard let proof else { return nil }
        try remember(proof, tenant: tenant, now: now)
        return proof
    }

    /// Records the proof in the replay cache; a proof seen before is refused (RFC 9449 §11.1).
    func remember(_ proof: DPoPProof, tenant: TenantRecord, now: Date) throws(ServiceError) {
        let expiresAt = now.addingTimeInterval(DPoPVerifier.maximumAge + DPoPVerifier.maximumSkew)
        let fresh = try access.write(.relaxed) { transaction in
            try transaction.dpopProofs.record(tenantID: tenant.id, key: proof.replayKey, expiresAt: expiresAt, now: now)
        }
        guard fresh else { throw .invalidDPoPProof("the DPoP proof was already used; make a new one per request") }
    }

    /// Verifies a presented access token for `audience` and returns it with its scopes: a Bearer
    /// token, or a DPoP one with a proof made with the token's key (RFC 9449 §7). A DPoP-bound token
    /// presented as Bearer is refused (§7.2), so a stolen one is worthless.
    /// The principal behind `presented`, checked for `tenant` and `audience` (as `authenticate`).
    public func principal(
        _ presented: PresentedToken?, tenant: TenantRecord, audience: String
    ) throws(ServiceError) -> Principal {
        Principal(
            token: try authenticate(presented, tenant: tenant, audience: audience), tenantID: tenant.id,
            audience: audience)
    }

    public func authenticate(
        _ presented: PresentedToken?, tenant: TenantRecord, audience: String
    ) throws(ServiceError) -> VerifiedJWT {
        switch presented {
        case nil:
            throw .invalidToken("an Authorization: Bearer (or DPoP) access token is required")
        case .dpop(let token, let proof):
            return try authenticateDPoP(token, proof, tenant: tenant, audience: audience)
        case .bearer(let token):
            let verified = try verifyAccessToken(token, tenant: tenant, audience: audience)
            guard verified.claims["cnf"] == nil else {
                throw .invalidToken(
                    "this access token is bound to a DPoP key; send it as Authorization: DPoP with a proof")
            }
            return verified
        }
    }

    private func authenticateDPoP(
        _ token: String, _ request: DPoPRequest, tenant: TenantRecord, audience: String
    ) throws(ServiceError) -> VerifiedJWT {
        let now = clock.now()
        let verified: VerifiedJWT
        do {
            verified = try verifyAccessToken(token, tenant: tenant, audience: audience)
        } catch {
            guard case .invalidToken(let text) = error else { throw error }
            throw .dpopChallenge(.invalidToken, text, nonce: nil)
        }
        guard case .object(let confirmation)? = verified.claims["cnf"], let bound = confirmation["jkt"]?.stringValue
        else {
            throw .dpopChallenge(.invalidToken, "this access token is not DPoP-bound; send it as Bearer", nonce: nil)
        }
        let proof: DPoPProof?
        do {
            proof = try dpop.verify(request, accessToken: token, now: now)
        } catch {
            switch error {
            case .invalid(let text): throw .dpopChallenge(.invalidDPoPProof, text, nonce: nil)
            case .nonceRequired:
                throw .dpopChallenge(
                    .useDPoPNonce, "the DPoP proof must carry the server's nonce", nonce: dpop.nonce(at: now))
            }
        }
        guard let proof else {
            throw .dpopChallenge(.invalidDPoPProof, "the DPoP scheme needs a DPoP proof header", nonce: nil)
        }
        guard constantTimeEquals(Array(proof.thumbprint.utf8), Array(bound.utf8)) else {
            throw .dpopChallenge(.invalidDPoPProof, "the DPoP proof is not signed with the token's key", nonce: nil)
        }
        do {
            try remember(proof, tenant: tenant, now: now)
        } catch {
            throw .dpopChallenge(.invalidDPoPProof, error.message, nonce: nil)
        }
        return verified
    }

    private func verifyAccessToken(
        _ token: String, tenant: TenantRecord, audience: String
    ) throws(ServiceError) -> VerifiedJWT {
        guard !token.isEmpty else { throw .invalidToken("the access token is empty") }
        guard token.utf8.count <= 8_192 else { throw .invalidToken("the access token is too long") }
        do {
            return try keyRing.verify(
                token, tenantID: tenant.id,
                expecting: JWTExpectations(
                    issuer: TokenService.issuer(tenant), audience: audience, type: .accessToken, now: clock.now()))
        } catch let error as JWTError {
            throw .invalidToken("the access token is not valid: \(error)")
        } catch {
            throw .unavailable("token keys could not be loaded")
        }
    }
}
