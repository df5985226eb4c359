import Foundation
import SesameStore

/// Signing in with Apple once an identity is linked (docs/account-upgrades.md): the token endpoint's
/// `urn:ietf:params:oauth:grant-type:token-exchange`, with an Apple authorization code
/// (`http://auth0.com/oauth/token-type/apple-authz-code`, Auth0's native form, redeemed at Apple
/// with the connection's key) or an Apple identity token (`urn:ietf:params:oauth:token-type:id_token`,
/// with the raw nonce when it carries one).
struct AppleSignInLogin: Sendable {
    static let authorizationCodeType = "http://auth0.com/oauth/token-type/apple-authz-code"
    static let identityTokenType = "urn:ietf:params:oauth:token-type:id_token"

    let access: StoreAccess
    let clock: any ServiceClock
    let verifier: AppleIdentityVerifier
    let redemption: AppleCodeRedemption
    let events: AuthEventRecorder

    /// The user the Apple identity is linked to, with the sign-in recorded.
    func logIn(
        tenant: TenantRecord, client: ClientRecord, parameters request: AppleGrant.Parameters
    ) throws(ServiceError) -> UserRecord {
        let now = clock.now()
        guard let subjectToken = request.subjectToken, !subjectToken.isEmpty else {
            throw .invalidRequest("subject_token is required")
        }
        guard
            let (connection, settings) = try access.read({ transaction in
                try AccountUpgradeService.appleConnection(tenant: tenant, clientID: client.id, in: transaction)
            })
        else { throw .unauthorizedClient("no Sign in with Apple connection is enabled for this client") }
        let identity: AppleIdentity
        do throws(ServiceError) {
            switch request.subjectTokenType {
            case Self.authorizationCodeType?:
                identity = try redemption.redeem(
                    code: subjectToken, connection: connection, settings: settings,
                    clientID: Self.redemptionClientID(client: client, settings: settings), now: now)
            case Self.identityTokenType?:
                identity = try verifier.verify(
                    subjectToken, settings: settings, rawNonce: request.nonce, nonceRule: .ifPresent, now: now)
            case nil:
                throw .invalidRequest("subject_token_type is required")
            case let other?:
                throw .invalidRequest(
                    "subject_token_type \(JWTVerifier.printable(other)) is not supported")
            }
        } catch {
            if case .invalidGrant = error {
                events.record(
                    tenantID: tenant.id, type: .login, method: .apple, outcome: .invalidGrant, at: now,
                    clientID: client.id, userID: nil, connectionID: connection.id)
            }
            throw error
        }
        let user = try access.write(.relaxed) { transaction -> UserRecord in
            guard
                var linked = try transaction.linkedIdentities.get(
                    tenantID: tenant.id, connectionID: connection.id, subject: identity.subject),
                let user = try transaction.users.get(tenantID: tenant.id, id: linked.userID)
            else {
                throw ServiceError.invalidGrant("no account is linked to this Apple ID")
            }
            // The account's own connection must serve this client, as for its other sign-ins.
            guard let home = try transaction.connections.get(tenantID: tenant.id, id: user.connectionID),
                home.enabledClients.isEmpty || home.enabledClients.contains(client.id)
            else { throw ServiceError.unauthorizedClient("the user's connection is not enabled for this client") }
            linked.lastLoginAt = now
            if let email = identity.email { linked.email = email }
            try transaction.linkedIdentities.update(linked)
            if !user.blocked { try transaction.users.touch(tenantID: tenant.id, id: user.id, lastLoginAt: now) }
            return user
        }
        guard !user.blocked else {
            events.record(
                tenantID: tenant.id, type: .login, method: .apple, outcome: .blocked, at: now, clientID: client.id,
                userID: user.id, connectionID: user.connectionID)
            throw .userBlocked
        }
        events.record(
            tenantID: tenant.id, type: .login, method: .apple, outcome: .success, at: now, clientID: client.id,
            userID: user.id, connectionID: user.connectionID)
        return user
    }

    /// The `client_id` a native code is redeemed with: the client's iOS bundle ID when the
    /// connection lists it, else the connection's first app id, else its Services ID.
    static func redemptionClientID(client: ClientRecord, settings: AppleSettings) -> String {
        if let bundle = client.ios?.bundleIdentifier, settings.appIDs.contains(bundle) { return bundle }
        return settings.appIDs.first ?? settings.servicesID ?? ""
    }
}
