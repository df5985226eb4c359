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
        group.post("/me/v1/device-keys", handler: registerKey)
        group.get("/me/v1/device-keys", handler: list)
        group.delete("/me/v1/device-keys/{id}", handler: delete)
        group.get("/me/v1/method-hints", handler: hints)
        group.post("/me/v1/passkey-enrollment/snooze", handler: snoozePasskeyPrompt)
    }

    func registrationChallenge(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try accountCaller(context, .create)
        return try .noStoreJSON(deviceKeys.registrationChallenge(caller))
    }

    func registerKey(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try accountCaller(context, .create)
        let body = try APIBody.json(request)
        try body.allowOnly(["auth_session", "public_key", "signature", "device"])
        guard let jwk = try body.object("public_key") else {
            throw ServiceError.invalidRequest("public_key is required")
        }
        try jwk.allowOnly(["kty", "crv", "x", "y", "alg", "use", "kid", "key_ops", "ext"])
        guard let device = try body.object("device") else {
            throw ServiceError.invalidRequest("device is required")
        }
        try device.allowOnly(["id", "name", "platform", "os_version", "model"])
        let platformName = try device.requiredString("platform", maxLength: 16)
        guard let platform = DevicePlatform(rawValue: platformName) else {
            throw ServiceError.invalidRequest("device.platform must be one of ios, android, web")
        }
        var key = ECPublicKeyJWK(
            x: try jwk.requiredString("x", maxLength: 64), y: try jwk.requiredString("y", maxLength: 64))
        key.kty = try jwk.requiredString("kty", maxLength: 8)
        key.crv = try jwk.requiredString("crv", maxLength: 16)
        let registration = DeviceKeyRegistration(
            authSession: try body.requiredString("auth_session", maxLength: 256), publicKey: key,
            signature: try body.requiredString("signature", maxLength: 200),
            device: DeviceKeyDevice(
                id: try device.requiredString("id", maxLength: 128),
                name: try device.requiredString("name", maxLength: 400), platform: platform,
                osVersion: try device.requiredString("os_version", maxLength: 32),
                model: try device.optionalString("model", maxLength: 256)))
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
            platform: request.query("platform"), osVersion: request.query("os_version"),
            webView: request.query("webview"))
        return try .noStoreJSON(methodHints.hints(caller, device: device))
    }

    func snoozePasskeyPrompt(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try accountCaller(context, .update)
        return try .noStoreJSON(["snoozed_until": try methodHints.snooze(caller)])
    }
}
