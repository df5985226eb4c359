import Foundation
import SesameStore
import SesameWire

/// Sesame's device-key grant (docs/migration.md): a signed-in user re-authenticates with the legacy
/// key on their device. The answer is the usual token response with a fresh `auth_time`,
/// `amr: ["hwk", "user"]`, and the passkey prompt when the device could have a passkey.
struct DeviceKeyGrant: TokenGrant {
    struct Parameters: ScopedGrantParameters {
        var authSession: String?
        var keyID: String?
        /// The signature of the challenge (base64url).
        var signature: String?
        /// The device's OS version now (it may have been updated since the key was registered),
        /// for the passkey prompt.
        var osVersion: String?
        var scope: String?
        var audience: String?
        var redirectURI: String?

        static let fields: [GrantField<Self>] =
            [
                .text(TokenFields.authSession, \.authSession).required,
                .text(TokenFields.keyID, \.keyID).required, .text(TokenFields.signature, \.signature).required,
                .text(TokenFields.osVersion, \.osVersion),
            ] + GrantField.scopeAndAudience + [.text(TokenFields.redirectURI, \.redirectURI)]
    }

    let deviceKeys: DeviceKeyService
    let enrollmentTickets: PasskeyEnrollmentTickets
    var grantTypes: [OAuthGrantType] { [.deviceKey] }

    func authenticate(_ parameters: Parameters, _ context: GrantContext) throws(ServiceError) -> GrantOutcome {
        let (tenant, client) = (context.tenant, context.client)
        let (scopes, audience) = try context.loginScopes(parameters.scope, audience: parameters.audience)
        let proved = try deviceKeys.reauthenticate(
            tenant: tenant, client: client, authSession: parameters.authSession, keyID: parameters.keyID,
            signature: parameters.signature, osVersion: parameters.osVersion)
        let returnTo = try TokenService.returnTo(parameters.redirectURI, client: client)
        // The access token names the key, so a passkey enrolled with it migrates that key.
        return .user(
            UserGrant(
                user: proved.user, scopes: scopes, audience: audience, amr: proved.amr, authTime: proved.authTime,
                refresh: .newFamily(passkeyID: nil),
                accessClaims: [TokenService.deviceKeyClaim: .string(proved.key.id)],
                finish: { [enrollmentTickets] (response: inout TokenResponse) throws(ServiceError) in
                    let device = HintedDevice(
                        platform: proved.key.platform, osVersion: OSVersion(proved.key.osVersion), webView: false)
                    response.passkeyEnrollment = try enrollmentTickets.prompt(
                        .deviceKeyReauth, tenant: tenant, client: client, user: proved.user,
                        connection: proved.connection, device: device, deviceKeyID: proved.key.id,
                        returnTo: returnTo)
                }))
    }
}
