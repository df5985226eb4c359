import Foundation
import SesameCrypto
import SesameStore
import SesameWire

/// The refresh grant (RFC 6749 §6). Everything that can refuse the request is checked before
/// anything is written, and the new tokens are signed before the rotation, so a refused or
/// failed request leaves the presented token usable (RFC 9700 §4.14.2): the rotation is the
/// last step, one write transaction that checks the token and the request again.
///
/// With an `audience` other than the one the family was granted for (Auth0's multi-resource
/// refresh token), the answer carries an access token for that audience; the family keeps its
/// own grant, so the next plain refresh gives the original audience and scopes again.
struct RefreshGrant: TokenGrant {
    struct Parameters: ScopedGrantParameters {
        var refreshToken: String?
        var scope: String?
        var audience: String?

        static let fields: [GrantField<Self>] =
            [.text(TokenFields.refreshToken, \.refreshToken).required] + GrantField.scopeAndAudience
    }

    let access: StoreAccess
    let clock: any ServiceClock
    let refreshTokens: RefreshTokens
    let events: AuthEventRecorder
    var grantTypes: [OAuthGrantType] { [.refreshToken] }

    func authenticate(_ parameters: Parameters, _ context: GrantContext) throws(ServiceError) -> GrantOutcome {
        let (tenant, client, proof) = (context.tenant, context.client, context.proof)
        guard let token = parameters.refreshToken, !token.isEmpty else {
            throw .invalidRequest("refresh_token is required")
        }
        let requested = try Scopes.parse(parameters.scope)
        let policy = RefreshTokenPolicy(tenant: tenant)
        // 1. Validate, writing nothing.
        let (record, renewal) = try access.read { transaction -> (RefreshTokenRecord?, Renewal?) in
            let record: RefreshTokenRecord
            switch try refreshTokens.inspect(token, tenantID: tenant.id, clientID: client.id, in: transaction) {
            case .usable(let found): record = found
            case .spent(let found):
                // A deleted user's tokens are revoked; say why, as Auth0 does, before reuse detection.
                if try transaction.users.get(tenantID: tenant.id, id: found.userID) == nil {
                    throw ServiceError.deletedUserGrant(RefreshTokenOutcome.deletedUserDescription)
                }
                return (nil, nil)
            case .expired, .wrongClient, .invalid: return (nil, nil)
            }
            let renewal = try Self.renewal(
                record, requested: requested, audience: parameters.audience, client: client, proof: proof,
                tenant: tenant, in: transaction)
            return (record, renewal)
        }
        let successor: PreparedRefreshToken
        do {
            successor = try refreshTokens.prepareSuccessor()
        } catch {
            throw .unavailable("the random source failed")
        }
        guard let record, let renewal else {
            // Unknown, foreign, expired, or spent: the rotation revokes a spent token's family and
            // refuses everything else (its check refuses even a token that is usable by now).
            let outcome = try access.write(.relaxed) { transaction in
                try refreshTokens.rotate(
                    token, tenantID: tenant.id, clientID: client.id, policy: policy, successor: successor,
                    check: { _, _ in throw ServiceError.invalidGrant(RefreshTokenOutcome.invalidDescription) },
                    in: transaction)
            }
            throw refused(outcome, context)
        }
        // 2. The issuer signs the new tokens, for the successor drawn above; 3. `finish` rotates,
        // checking the token and the request again inside the write.
        return .user(
            UserGrant(
                user: renewal.user, scopes: renewal.scopes, audience: renewal.audience, amr: record.amr,
                authTime: record.authTime, refresh: .successor(successor.token, familyID: record.familyID),
                finish: { _ throws(ServiceError) in
                    let outcome = try access.write(.relaxed) { transaction in
                        try refreshTokens.rotate(
                            token, tenantID: tenant.id, clientID: client.id, policy: policy, successor: successor,
                            check: { current, transaction in
                                _ = try Self.renewal(
                                    current, requested: requested, audience: parameters.audience, client: client,
                                    proof: proof, tenant: tenant, in: transaction)
                            }, in: transaction)
                    }
                    guard case .rotated = outcome else { throw refused(outcome, context) }
                    events.record(
                        tenantID: tenant.id, type: .refresh, method: .refreshToken, outcome: .success,
                        at: clock.now(), clientID: client.id, userID: renewal.user.id,
                        connectionID: renewal.user.connectionID)
                }))
    }

    /// The refusal of a token that could not be rotated, recorded; a reused token is audited with
    /// its family (which the rotation revoked).
    private func refused(_ outcome: RefreshTokenOutcome, _ context: GrantContext) -> ServiceError {
        let (tenant, client) = (context.tenant, context.client)
        events.record(
            tenantID: tenant.id, type: .refresh, method: .refreshToken, outcome: .invalidGrant, at: clock.now(),
            clientID: client.id, userID: nil, connectionID: nil)
        if case .reused(let familyID) = outcome {
            events.audit?.record(
                .failedRotatingRefresh, tenantID: tenant.id, clientID: client.id,
                details: AuditDetails(method: .refreshToken, reason: .invalidGrant, target: familyID))
        }
        return .invalidGrant(outcome.failureDescription ?? RefreshTokenOutcome.invalidDescription)
    }

    /// What one refresh request gets.
    struct Renewal {
        var user: UserRecord
        var scopes: [String]
        var audience: UserTokenAudience
    }

    /// What a usable refresh token grants for this request, or the refusal.
    ///
    /// For the family's own audience, the scopes asked for must have been granted (RFC 6749 §6);
    /// none asked for means all granted. For another audience, OpenID scopes must have been
    /// granted too, and the audience's own scopes follow the login rules (`UserTokenAudience`).
    /// A deleted user is Auth0's 403; a blocked one, or a family whose API was deleted, is the
    /// unusable-token answer.
    static func renewal(
        _ record: RefreshTokenRecord, requested: [String], audience requestedAudience: String?, client: ClientRecord,
        proof: DPoPProof?, tenant: TenantRecord, in transaction: any StoreTransaction
    ) throws -> Renewal {
        // A bound family renews only with a proof made with its key (RFC 9449 §5).
        if let bound = record.dpopJKT {
            guard let proof, constantTimeEquals(Array(proof.thumbprint.utf8), Array(bound.utf8)) else {
                throw ServiceError.invalidDPoPProof(
                    "this refresh token is bound to a DPoP key; send a proof signed with that key")
            }
        }
        let granted = record.scope.split(separator: " ").map(String.init)
        let grantedAudience = record.audience ?? TokenService.userInfoAudience(tenant)
        let target = requestedAudience.flatMap { $0.isEmpty ? nil : $0 } ?? grantedAudience
        guard let user = try transaction.users.get(tenantID: tenant.id, id: record.userID) else {
            throw ServiceError.deletedUserGrant(RefreshTokenOutcome.deletedUserDescription)
        }
        guard !user.blocked else { throw ServiceError.invalidGrant(RefreshTokenOutcome.invalidDescription) }
        let audience: UserTokenAudience
        do {
            audience = try UserTokenAudience.resolve(target, tenant: tenant, in: transaction)
        } catch ServiceError.invalidRequest(_) where target == grantedAudience {
            throw ServiceError.invalidGrant(RefreshTokenOutcome.invalidDescription)
        }
        // A credential change needs the sign-in itself (RFC 9470): no refresh reaches these scopes.
        if let changing = requested.first(where: { signInOnlyScopes.contains($0) }) {
            throw ServiceError.invalidScope("scope \(changing) needs a new sign-in; a refresh token does not grant it")
        }
        if target == grantedAudience {
            if let extra = requested.first(where: { !granted.contains($0) }) {
                throw ServiceError.invalidScope("scope \(extra.prefix(64)) was not granted to this refresh token")
            }
            let scopes = try audience.scopes(requested.isEmpty ? granted : requested, client: client)
            return Renewal(
                user: user, scopes: scopes.filter { !signInOnlyScopes.contains($0) }, audience: audience)
        }
        if let extra = requested.first(where: { Scopes.openID.contains($0) && !granted.contains($0) }) {
            throw ServiceError.invalidScope("scope \(extra) was not granted to this refresh token")
        }
        let asked = requested.isEmpty ? granted.filter { Scopes.openID.contains($0) } : requested
        let scopes = try audience.scopes(asked, client: client).filter { !signInOnlyScopes.contains($0) }
        return Renewal(user: user, scopes: scopes, audience: audience)
    }

    /// The MFA API's scopes that change credentials: only a sign-in grants them, never a refresh.
    static let signInOnlyScopes: Set<String> = ["enroll", "remove:authenticators"]
}
