import Foundation
import SesameService
import SesameStore
import SesameWire
import WebAuthn

/// The public migration routes: the unauthenticated method hint and the device-key
/// re-authentication challenge (which needs the user's access token on the call).
struct DeviceKeyController: Sendable {
    let tokens: TokenService
    let deviceKeys: DeviceKeyService
    let methodHints: MethodHintService

    func register(to group: inout RouteGroup<TenantContext>) {
        group.get("/passkey/method-hints", query: RequestQuery([RequestQuery.clientID]) + .device, handler: hints)
        group.post("/device-key/challenge", body: Self.challenge, handler: reauthenticationChallenge)
    }

    func hints(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        let device = try MethodHintService.device(
            platform: request.query(RequestQuery.platform), osVersion: request.query(RequestQuery.osVersion),
            webView: request.query(RequestQuery.webView))
        return try .noStoreJSON(
            methodHints.registerHint(
                tenant: context.tenant, clientID: request.query(RequestQuery.clientID), device: device))
    }

    /// The app and the key it will sign with.
    static let challenge = RequestBody.json([
        WireField("client_id", .text(128)).required,
        WireField("key_id", .string(maxLength: 64, pattern: "^[A-Za-z0-9_-]{21}[AQgw]$")).required,
    ])

    func reauthenticationChallenge(_ request: HTTPRequest, _ reader: BodyReader, _ context: TenantContext) throws
        -> HTTPResponse
    {
        let body = try reader.read()
        let principal = try tokens.userPrincipal(
            RequestInput.presentedToken(request, tenant: context.tenant), tenant: context.tenant)
        let challenge = try deviceKeys.reauthChallenge(
            tenant: context.tenant, principal: principal,
            request: DeviceKeyChallengeRequest(
                clientID: try body.requiredString("client_id"), keyID: try body.requiredString("key_id")))
        return try .noStoreJSON(challenge)
    }
}
