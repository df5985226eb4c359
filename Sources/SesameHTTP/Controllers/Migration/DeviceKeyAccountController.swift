import Foundation
import SesameService
import SesameStore
import SesameWire
import WebAuthn

/// `/me/v1` routes of the migration from device keys (docs/migration.md): register, list and delete
/// device keys, the method hints, and the passkey prompt's snooze.
struct DeviceKeyAccountController: Sendable, MyAccountRouting {
    let myAccount: MyAccountService
    let deviceKeys: DeviceKeyService
    let methodHints: MethodHintService

    func register(to group: inout RouteGroup<PrincipalContext>) {
        group.post("/me/v1/device-keys/challenge", handler: registrationChallenge)
        group.post("/me/v1/device-keys", body: Self.registration, handler: registerKey)
        group.get("/me/v1/device-keys", handler: list)
        group.delete("/me/v1/device-keys/{id}", handler: delete)
        group.get("/me/v1/method-hints", query: .device, handler: hints)
        group.post("/me/v1/passkey-enrollment/snooze", handler: snoozePasskeyPrompt)
    }

    func registrationChallenge(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try accountCaller(context, .create)
        return try .noStoreJSON(deviceKeys.registrationChallenge(caller))
    }

    /// A key made on the device, its signature over the registration challenge, and the device.
    static let registration = RequestBody.json([
        WireField("auth_session", .text(256)).required, WireField("public_key", DeviceKeyBodies.publicKey).required,
        WireField("signature", .text(200)).required, WireField("device", DeviceKeyBodies.device).required,
    ])

    func registerKey(_ request: HTTPRequest, _ reader: BodyReader, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try accountCaller(context, .create)
        let body = try reader.read()
        guard let jwk = try body.object("public_key") else {
            throw ServiceError.invalidRequest("public_key is required")
        }
        var key = ECPublicKeyJWK(x: try jwk.requiredString("x"), y: try jwk.requiredString("y"))
        key.kty = try jwk.requiredString("kty")
        key.crv = try jwk.requiredString("crv")
        let registration = DeviceKeyRegistration(
            authSession: try body.requiredString("auth_session"), publicKey: key,
            signature: try body.requiredString("signature"), device: try DeviceKeyBodies.device(body))
        let stored = try deviceKeys.register(caller, registration)
        return try .noStoreJSON(stored.response(includeUser: false), status: 201)
    }

    func list(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try accountCaller(context, .read)
        return try .noStoreJSON(
            DeviceKeyList(deviceKeys: deviceKeys.list(caller).map { $0.response(includeUser: false) }))
    }

    func delete(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try accountCaller(context, .delete)
        try deviceKeys.delete(caller, id: try context.pathParameter("id"))
        return .empty()
    }

    func hints(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try accountCaller(context, .read)
        let device = try MethodHintService.device(
            platform: request.query(RequestQuery.platform), osVersion: request.query(RequestQuery.osVersion),
            webView: request.query(RequestQuery.webView))
        return try .noStoreJSON(methodHints.hints(caller, device: device))
    }

    func snoozePasskeyPrompt(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try accountCaller(context, .update)
        return try .noStoreJSON(["snoozed_until": try methodHints.snooze(caller)])
    }
}
