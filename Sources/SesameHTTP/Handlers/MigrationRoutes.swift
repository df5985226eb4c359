import Foundation
import SesameService
import SesameStore
import SesameWire
import WebAuthn

extension SesameApplication {
    /// `/me/v1` routes of the migration from device keys (docs/migration.md): register, list and delete
    /// device keys, the method hints, and the passkey prompt's snooze.
    func addMigrationAccountRoutes(to router: inout RouteGroup<PrincipalContext>) {
        router.post("/me/v1/device-keys/challenge") { [self] _, context in
            let caller = try accountCaller(context, .create)
            return try .noStoreJSON(deviceKeys.registrationChallenge(caller))
        }

        router.post("/me/v1/device-keys") { [self] request, context in
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

        router.get("/me/v1/device-keys") { [self] _, context in
            let caller = try accountCaller(context, .read)
            return try .noStoreJSON(
                DeviceKeyList(deviceKeys: deviceKeys.list(caller).map { $0.response(includeUser: false) }))
        }

        router.delete("/me/v1/device-keys/{id}") { [self] _, context in
            let caller = try accountCaller(context, .delete)
            try deviceKeys.delete(caller, id: try context.pathParameter("id"))
            return .empty()
        }

        router.get("/me/v1/method-hints") { [self] request, context in
            let caller = try accountCaller(context, .read)
            let device = try MethodHintService.device(
                platform: request.query("platform"), osVersion: request.query("os_version"),
                webView: request.query("webview"))
            return try .noStoreJSON(methodHints.hints(caller, device: device))
        }

        router.post("/me/v1/passkey-enrollment/snooze") { [self] _, context in
            let caller = try accountCaller(context, .update)
            return try .noStoreJSON(["snoozed_until": try methodHints.snooze(caller)])
        }
    }

    /// The public migration routes: the unauthenticated method hint and the device-key
    /// re-authentication challenge (which needs the user's access token on the call).
    func addDeviceKeyRoutes(to router: inout RouteGroup<TenantContext>) {
        router.get("/passkey/method-hints") { [self] request, context in
            let device = try MethodHintService.device(
                platform: request.query("platform"), osVersion: request.query("os_version"),
                webView: request.query("webview"))
            return try .noStoreJSON(
                methodHints.registerHint(tenant: context.tenant, clientID: request.query("client_id"), device: device))
        }

        router.post("/device-key/challenge") { [self] request, context in
            let body = try APIBody.json(request)
            try body.allowOnly(["client_id", "key_id"])
            let principal = try tokens.userPrincipal(
                Self.presentedToken(request, tenant: context.tenant), tenant: context.tenant)
            let challenge = try deviceKeys.reauthChallenge(
                tenant: context.tenant, principal: principal,
                request: DeviceKeyChallengeRequest(
                    clientID: try body.requiredString("client_id", maxLength: 128),
                    keyID: try body.requiredString("key_id", maxLength: 64)))
            return try .noStoreJSON(challenge)
        }
    }

    /// The platform an SDK's `Auth0-Client` header names (base64url JSON whose `env` has the OS as
    /// a key, as Auth0.swift, Auth0.Android and Sesame's SDK send it): Apple's systems count as
    /// `ios`, Android as `android`, a browser SDK as `web`; nil when absent or unreadable.
    static func clientPlatform(_ request: HTTPRequest) -> ClientPlatform? {
        // base64url without padding (Auth0.swift, Auth0.Android, Sesame's SDK), or a browser's btoa().
        guard let header = request.headers["Auth0-Client"], header.utf8.count <= 2_048,
            let data = (try? Base64URL.decode(header)).map({ Data($0) }) ?? Data(base64Encoded: header),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        let env = (object["env"] as? [String: Any]).map { Set($0.keys.map { $0.lowercased() }) } ?? []
        if !env.isDisjoint(with: ["ios", "ipados", "macos", "visionos", "tvos", "watchos", "maccatalyst"]) {
            return .ios
        }
        if env.contains("android") { return .android }
        let name = (object["name"] as? String)?.lowercased() ?? ""
        if name.contains("spa-js") || name.contains("auth0.js") || name.contains("lock") { return .web }
        return nil
    }
}

extension SesameApplication {
    /// The Management API's side of the migration: a user's device keys (list, import, revoke,
    /// delete) and the adoption statistics (docs/migration.md).
    func addMigrationManagementRoutes(to router: inout RouteGroup<PrincipalContext>) {
        router.get("/api/v2/stats/authentications") { [self] request, context in
            let caller = try managementCaller(context, .readStats)
            let query = AdoptionQuery(
                from: request.query("from"), to: request.query("to"), clientID: request.query("client_id"),
                connection: request.query("connection"))
            let report = try management.authenticationStats(caller, query)
            if request.query("format") == "csv" { return .csv(report) }
            return try .noStoreJSON(report)
        }

        router.get("/api/v2/users/{id}/device-keys") { [self] _, context in
            let caller = try managementCaller(context, .readAuthenticationMethods)
            let keys = try management.deviceKeys(caller, userID: try context.pathParameter("id"))
            return try .noStoreJSON(keys.map { $0.response(includeUser: true) })
        }

        router.post("/api/v2/users/{id}/device-keys") { [self] request, context in
            let caller = try managementCaller(context, .updateUsers)
            let body = try APIBody.json(request)
            try body.allowOnly(["public_key", "device", "client_id", "created_at"])
            let publicKey: DeviceKeyImport.PublicKeyInput
            if let jwk = try? body.object("public_key") {
                try jwk.allowOnly(["kty", "crv", "x", "y", "alg", "use", "kid", "key_ops", "ext"])
                publicKey = .jwk(
                    x: try jwk.requiredString("x", maxLength: 64), y: try jwk.requiredString("y", maxLength: 64),
                    kty: try jwk.requiredString("kty", maxLength: 8), crv: try jwk.requiredString("crv", maxLength: 16))
            } else {
                publicKey = .text(try body.requiredString("public_key", maxLength: 4_096))
            }
            guard let device = try body.object("device") else {
                throw ServiceError.invalidRequest("device is required")
            }
            try device.allowOnly(["id", "name", "platform", "os_version", "model"])
            let platformName = try device.requiredString("platform", maxLength: 16)
            guard let platform = DevicePlatform(rawValue: platformName) else {
                throw ServiceError.invalidRequest("device.platform must be one of ios, android, web")
            }
            var createdAt: Date?
            if let text = try body.string("created_at", maxLength: 64) {
                guard let date = Self.isoDate(text) else {
                    throw ServiceError.invalidRequest(
                        "created_at must be an ISO 8601 time such as 2024-05-01T09:00:00Z")
                }
                createdAt = date
            }
            let imported = try management.importDeviceKey(
                caller, userID: try context.pathParameter("id"),
                DeviceKeyImport(
                    publicKey: publicKey,
                    device: DeviceKeyDevice(
                        id: try device.requiredString("id", maxLength: 128),
                        name: try device.requiredString("name", maxLength: 400), platform: platform,
                        osVersion: try device.requiredString("os_version", maxLength: 32),
                        model: try device.optionalString("model", maxLength: 256)),
                    clientID: try body.requiredString("client_id", maxLength: 128), createdAt: createdAt))
            return try .noStoreJSON(imported.response(includeUser: true), status: 201)
        }

        router.patch("/api/v2/users/{id}/device-keys/{key_id}") { [self] request, context in
            let caller = try managementCaller(context, .updateUsers)
            let body = try APIBody.json(request)
            try body.allowOnly(["status"])
            let key = try management.revokeDeviceKey(
                caller, userID: try context.pathParameter("id"), keyID: try context.pathParameter("key_id"),
                status: try body.requiredString("status", maxLength: 32))
            return try .noStoreJSON(key.response(includeUser: true))
        }

        router.delete("/api/v2/users/{id}/device-keys/{key_id}") { [self] _, context in
            let caller = try managementCaller(context, .deleteAuthenticationMethods)
            try management.deleteDeviceKey(
                caller, userID: try context.pathParameter("id"), keyID: try context.pathParameter("key_id"))
            return .empty()
        }
    }

    /// An RFC 3339 time (with or without fractional seconds).
    static func isoDate(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }
}

extension HTTPResponse {
    /// The adoption report as CSV (the Management API's `format=csv`, the admin page's download).
    static func csv(_ report: AdoptionReport, filename: String? = nil) -> HTTPResponse {
        var response = HTTPResponse(status: 200, body: Array(AdoptionCSV.text(report).utf8))
        response.headers.replaceOrAdd(name: "Content-Type", value: "text/csv; charset=utf-8")
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        if let filename {
            response.headers.replaceOrAdd(name: "Content-Disposition", value: "attachment; filename=\"\(filename)\"")
        }
        return response
    }
}
