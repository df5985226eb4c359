import Foundation
import SesameStore
import SesameWire

/// Auth0's MFA grants (docs/mfa.md): the second factor of a login an `mfa_token` stands for, as a
/// TOTP code, an SMS code, or a recovery code. The tokens are those the first step asked for; the
/// audience and scopes are checked again.
struct MFAGrant: TokenGrant {
    struct Parameters: GrantParameters {
        var mfaToken: String?
        var otp: String?
        var oobCode: String?
        var bindingCode: String?
        var recoveryCode: String?

        static let fields: [GrantField<Self>] = [
            .text(TokenFields.mfaToken, \.mfaToken).required, .text(TokenFields.otp, \.otp),
            .text(TokenFields.oobCode, \.oobCode), .text(TokenFields.bindingCode, \.bindingCode),
            .text(TokenFields.recoveryCode, \.recoveryCode),
        ]
    }

    let access: StoreAccess
    let clock: any ServiceClock
    let mfa: MFAService
    let accessTokens: AccessTokenVerifier
    let enrollmentTickets: PasskeyEnrollmentTickets
    var grantTypes: [OAuthGrantType] { [.mfaOTP, .mfaOOB, .mfaRecoveryCode] }

    func authenticate(_ parameters: Parameters, _ context: GrantContext) throws(ServiceError) -> GrantOutcome {
        let (tenant, client, grant) = (context.tenant, context.client, context.grantType)
        let subject = try subject(parameters.mfaToken, context)
        let completion: MFACompletion
        switch grant {
        case .mfaOTP:
            completion = try mfa.completeOTP(tenant: tenant, client: client, subject: subject, otp: parameters.otp)
        case .mfaOOB:
            completion = try mfa.completeOOB(
                tenant: tenant, client: client, subject: subject, oobCode: parameters.oobCode,
                bindingCode: parameters.bindingCode)
        default:
            completion = try mfa.completeRecovery(
                tenant: tenant, client: client, mfaToken: parameters.mfaToken, recoveryCode: parameters.recoveryCode)
        }
        let (scopes, audience) = try context.loginScopes(completion.ticket.scope, audience: completion.ticket.audience)
        let authTime: Date
        if case .enrollment = subject { authTime = completion.ticket.authTime } else { authTime = clock.now() }
        return .user(
            UserGrant(
                user: completion.user, scopes: scopes, audience: audience, amr: completion.amr, authTime: authTime,
                refresh: .newFamily(passkeyID: nil),
                finish: { (response: inout TokenResponse) throws(ServiceError) in
                    try answer(&response, completion: completion, tenant: tenant, client: client)
                }))
    }

    /// Whose second factor this is: the login an `mfa_token` stands for, or, for an MFA API access
    /// token (a JWT) in `mfa_token`, a factor that token just enrolled.
    private func subject(_ token: String?, _ context: GrantContext) throws(ServiceError) -> MFASubject {
        guard context.grantType != .mfaRecoveryCode, let token, token.contains(".") else {
            return .mfaToken(token)
        }
        let principal: Principal
        do {
            principal = try accessTokens.principal(
                .bearer(token), tenant: context.tenant, audience: MFAService.audience(context.tenant))
        } catch {
            throw .mfaRefused(.malformedToken)
        }
        guard let userID = principal.subject, principal.clientID == context.client.id,
            principal.scopes.contains("enroll")
        else { throw .mfaRefused(.malformedToken) }
        // The tokens it gets keep the access token's sign-in: confirming a factor one just
        // enrolled is not a second factor of that sign-in.
        guard let authTime = principal.authTime else { throw .mfaRefused(.malformedToken) }
        return .enrollment(
            userID: userID, scope: principal.scopes.sorted().joined(separator: " "), amr: principal.amr,
            authTime: authTime)
    }

    /// What the answer adds: the new recovery code, the passkey prompt after a password's second
    /// factor, and the password's status from the first step.
    private func answer(
        _ response: inout TokenResponse, completion: MFACompletion, tenant: TenantRecord, client: ClientRecord
    ) throws(ServiceError) {
        response.recoveryCode = completion.newRecoveryCode
        // The second factor of a password login: progressive enrollment as after the password alone.
        if completion.ticket.amr.contains("pwd"),
            let connection = try access.read({
                try $0.connections.get(tenantID: tenant.id, id: completion.user.connectionID)
            })
        {
            response.passkeyEnrollment = try enrollmentTickets.prompt(
                .progressive, tenant: tenant, client: client, user: completion.user, connection: connection,
                device: nil, returnTo: nil)
        }
        if let status = completion.ticket.passwordStatus {
            response.passwordStatus = status
            response.recommendedUpgrades =
                completion.ticket.recommendedUpgrades.isEmpty ? nil : completion.ticket.recommendedUpgrades
        }
    }
}
