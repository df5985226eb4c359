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
        group.get(
            "/api/v2/stats/authentications", query: RequestQuery.adoption + Self.reportFormat,
            handler: authenticationStatistics)
        group.get("/api/v2/users/{id}/device-keys", handler: deviceKeys)
        group.post("/api/v2/users/{id}/device-keys", body: Self.keyImport, handler: importDeviceKey)
        group.patch("/api/v2/users/{id}/device-keys/{key_id}", body: Self.keyChange, handler: updateDeviceKey)
        group.delete("/api/v2/users/{id}/device-keys/{key_id}", handler: deleteDeviceKey)
    }

    func authenticationStatistics(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readStats)
        let report = try management.authenticationStats(caller, RequestInput.adoptionQuery(request))
        if request.query(Self.format) == "csv" { return .csv(report) }
        return try .noStoreJSON(report)
    }

    static let format = WireField("format", .oneOf(["json", "csv"]))
    static let reportFormat = RequestQuery([format])

    func deviceKeys(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readAuthenticationMethods)
        let keys = try management.deviceKeys(caller, userID: try context.pathParameter("id"))
        return try .noStoreJSON(keys.map { $0.response(includeUser: true) })
    }

    /// An imported key: a JWK or its PEM/DER text, its device, the app that made it.
    static let keyImport = RequestBody.json([
        WireField("public_key", .either(DeviceKeyBodies.publicKey, .text(4_096))).required,
        WireField("device", DeviceKeyBodies.device).required, WireField("client_id", .text(128)).required,
        WireField("created_at", .string(maxLength: 64, format: "date-time")),
    ])
    /// The one change a key takes: revocation.
    static let keyChange = RequestBody.json([WireField("status", .oneOf(["revoked"])).required])

    func importDeviceKey(_ request: HTTPRequest, _ reader: BodyReader, _ context: PrincipalContext) throws
        -> HTTPResponse
    {
        let caller = try managementCaller(context, .updateUsers)
        let body = try reader.read()
        let publicKey: DeviceKeyImport.PublicKeyInput
        if let jwk = try? body.object("public_key") {
            publicKey = .jwk(
                x: try jwk.requiredString("x"), y: try jwk.requiredString("y"), kty: try jwk.requiredString("kty"),
                crv: try jwk.requiredString("crv"))
        } else {
            publicKey = .text(try body.requiredString("public_key"))
        }
        let device = try DeviceKeyBodies.device(body)
        var createdAt: Date?
        if let text = try body.string("created_at") {
            guard let date = Self.isoDate(text) else {
                throw ServiceError.invalidRequest(
                    "created_at must be an ISO 8601 time such as 2024-05-01T09:00:00Z")
            }
            createdAt = date
        }
        let imported = try management.importDeviceKey(
            caller, userID: try context.pathParameter("id"),
            DeviceKeyImport(
                publicKey: publicKey, device: device, clientID: try body.requiredString("client_id"),
                createdAt: createdAt))
        return try .noStoreJSON(imported.response(includeUser: true), status: 201)
    }

    func updateDeviceKey(_ request: HTTPRequest, _ reader: BodyReader, _ context: PrincipalContext) throws
        -> HTTPResponse
    {
        let caller = try managementCaller(context, .updateUsers)
        let body = try reader.read()
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
