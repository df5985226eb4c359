import Foundation
import SesameService
import SesameStore
import SesameWire
import WebAuthn

/// The Management API's side of the migration: a user's device keys (list, import, revoke,
/// delete) and the adoption statistics (docs/migration.md).
struct MigrationManagementController: Sendable, ManagementRouting {
    let management: ManagementService

    func register(to group: inout RouteGroup<PrincipalContext>) {
        group.get("/api/v2/stats/authentications", handler: authenticationStatistics)
        group.get("/api/v2/users/{id}/device-keys", handler: deviceKeys)
        group.post("/api/v2/users/{id}/device-keys", handler: importDeviceKey)
        group.patch("/api/v2/users/{id}/device-keys/{key_id}", handler: updateDeviceKey)
        group.delete("/api/v2/users/{id}/device-keys/{key_id}", handler: deleteDeviceKey)
    }

    func authenticationStatistics(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readStats)
        let query = AdoptionQuery(
            from: request.query("from"), to: request.query("to"), clientID: request.query("client_id"),
            connection: request.query("connection"))
        let report = try management.authenticationStats(caller, query)
        if request.query("format") == "csv" { return .csv(report) }
        return try .noStoreJSON(report)
    }

    func deviceKeys(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readAuthenticationMethods)
        let keys = try management.deviceKeys(caller, userID: try context.pathParameter("id"))
        return try .noStoreJSON(keys.map { $0.response(includeUser: true) })
    }

    func importDeviceKey(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
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

    func updateDeviceKey(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .updateUsers)
        let body = try APIBody.json(request)
        try body.allowOnly(["status"])
        let key = try management.revokeDeviceKey(
            caller, userID: try context.pathParameter("id"), keyID: try context.pathParameter("key_id"),
            status: try body.requiredString("status", maxLength: 32))
        return try .noStoreJSON(key.response(includeUser: true))
    }

    func deleteDeviceKey(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .deleteAuthenticationMethods)
        try management.deleteDeviceKey(
            caller, userID: try context.pathParameter("id"), keyID: try context.pathParameter("key_id"))
        return .empty()
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
