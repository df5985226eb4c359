import Foundation
import SesameStore
import SesameWire

/// The password grants (docs/passwords.md): Auth0's `password-realm` (the connection as `realm`) and
/// RFC 6749 §4.3's `password` (the tenant's default connection). A user with a second factor gets
/// `mfa_required` and an `mfa_token` instead of tokens.
struct PasswordGrant: TokenGrant {
    struct Parameters: ScopedGrantParameters {
        var username: String?
        var password: String?
        var realm: String?
        var scope: String?
        var audience: String?
        var redirectURI: String?

        static let fields: [GrantField<Self>] =
            [
                .text(TokenFields.username, \.username).required,
                .text(TokenFields.password, \.password).required,
                .text(TokenFields.realm, \.realm),
            ] + GrantField.scopeAndAudience + [.text(TokenFields.redirectURI, \.redirectURI)]
    }

    let access: StoreAccess
    let passwords: PasswordService
    let mfa: MFAService
    let enrollmentTickets: PasskeyEnrollmentTickets
    var grantTypes: [OAuthGrantType] { [.password, .passwordRealm] }

    func authenticate(_ parameters: Parameters, _ context: GrantContext) throws(ServiceError) -> GrantOutcome {
        let (tenant, client) = (context.tenant, context.client)
        // Scope and audience are checked before the password, so a typo costs no hash.
        let (scopes, audience) = try context.loginScopes(parameters.scope, audience: parameters.audience)
        let login = try passwords.logIn(
            tenant: tenant, client: client, grant: context.grantType, realm: parameters.realm,
            username: parameters.username, password: parameters.password,
            address: context.call.clientAddress() ?? "unknown")
        AuditScope.note(login.user)
        let upgrades = try recommendedUpgrades(login, tenant: tenant, client: client)
        if let requirement = MFAService.requirement(tenant: tenant, user: login.user) {
            var ticket = MFATicket(
                userID: login.user.id, clientID: client.id, scope: scopes.joined(separator: " "),
                audience: audience.identifier(tenant), amr: login.amr, authTime: login.authTime)
            ticket.passwordStatus = login.status
            ticket.recommendedUpgrades = upgrades ?? []
            let token = try mfa.issueToken(tenant: tenant, ticket: ticket)
            throw .mfaRequired(token: token, requirement: requirement)
        }
        let returnTo = try TokenService.returnTo(parameters.redirectURI, client: client)
        return .user(
            UserGrant(
                user: login.user, scopes: scopes, audience: audience, amr: login.amr, authTime: login.authTime,
                refresh: .newFamily(passkeyID: nil),
                finish: { [enrollmentTickets] (response: inout TokenResponse) throws(ServiceError) in
                    response.passwordStatus = login.status
                    response.recommendedUpgrades = upgrades
                    response.passkeyEnrollment = try enrollmentTickets.prompt(
                        .progressive, tenant: tenant, client: client, user: login.user,
                        connection: login.connection, device: nil, returnTo: returnTo)
                }))
    }

    /// What a weak or breached password may move to (docs/account-upgrades.md), as the connection
    /// allows: a passkey where the connection has them, Sign in with Apple where an Apple connection
    /// serves the client, and a strong password; nil for a password that is fine.
    func recommendedUpgrades(_ login: PasswordLogin, tenant: TenantRecord, client: ClientRecord) throws(ServiceError)
        -> [RecommendedUpgrade]?
    {
        guard login.status != .ok else { return nil }
        let allowed = login.connection.upgrades.allowed
        var upgrades: [RecommendedUpgrade] = []
        if allowed.contains(.passkey), login.connection.passkey.enabled { upgrades.append(.passkey) }
        if allowed.contains(.signInWithApple),
            try access.read({
                try AccountUpgradeService.appleConnection(tenant: tenant, clientID: client.id, in: $0)
            }) != nil
        {
            upgrades.append(.signInWithApple)
        }
        if allowed.contains(.strongPassword) { upgrades.append(.strongPassword) }
        return upgrades.isEmpty ? nil : upgrades
    }
}
