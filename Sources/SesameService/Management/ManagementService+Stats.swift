import Foundation
import SesameCrypto
import SesameStore
import SesameWire
import WebAuthn

/// `/api/v2/stats/authentications` and the Management API's device keys (docs/migration.md).
extension ManagementService {
    /// `GET /stats/authentications?from=&to=[&client_id=][&connection=]`.
    public func authenticationStats(_ caller: ManagementCaller, _ query: AdoptionQuery) throws(ServiceError)
        -> AdoptionReport
    {
        try caller.require(.readStats)
        return try AdoptionStatistics(access: access, clock: clock).report(tenant: caller.tenant, query)
    }

    /// `GET /users/{id}/device-keys`: the user's device keys, oldest first.
    public func deviceKeys(_ caller: ManagementCaller, userID: String) throws(ServiceError) -> [DeviceKeyRecord] {
        try caller.require(.readAuthenticationMethods)
        return try access.read { transaction in
            guard try transaction.users.get(tenantID: caller.tenant.id, id: userID) != nil else {
                throw ServiceError.notFound("user not found")
            }
            return try transaction.deviceKeys.list(tenantID: caller.tenant.id, userID: userID)
        }
    }

    /// The user's second factors, in enrollment order, for the admin user page: what each is, whether
    /// its first code confirmed it, when it was added, and an SMS factor's number masked as the
    /// MFA API masks it. No secret, code hash or full number leaves the store this way.
    public func mfaFactors(_ caller: ManagementCaller, userID: String) throws(ServiceError) -> [MFAFactorSummary] {
        try caller.require(.readAuthenticationMethods)
        return try access.read { transaction in
            guard let user = try transaction.users.get(tenantID: caller.tenant.id, id: userID) else {
                throw ServiceError.notFound("user not found")
            }
            return user.mfa.map {
                MFAFactorSummary(
                    id: $0.id, factor: $0.factor, active: $0.active, createdAt: $0.createdAt,
                    maskedPhoneNumber: $0.phoneNumber.map(MFAService.masked))
            }
        }
    }

    /// `DELETE /users/{id}/device-keys/{key_id}`.
    public func deleteDeviceKey(_ caller: ManagementCaller, userID: String, keyID: String) throws(ServiceError) {
        try caller.require(.deleteAuthenticationMethods)
        try access.write(.durable) { transaction in
            guard let key = try transaction.deviceKeys.get(tenantID: caller.tenant.id, id: keyID), key.userID == userID
            else { throw ServiceError.notFound("device key not found") }
            try transaction.deviceKeys.delete(tenantID: caller.tenant.id, id: keyID)
        }
        audit(.deviceKeyDeleted, caller, userID: userID, target: keyID, method: .deviceKey)
    }

    /// `PATCH /users/{id}/device-keys/{key_id}` `{"status": "revoked"}`: the key never works again
    /// and stays listed. Revocation is the only change; a revoked key cannot come back.
    public func revokeDeviceKey(_ caller: ManagementCaller, userID: String, keyID: String, status: String)
        throws(ServiceError) -> DeviceKeyRecord
    {
        try caller.require(.updateUsers)
        guard status == DeviceKeyState.revoked.rawValue else {
            throw .invalidRequest("status can only be changed to revoked")
        }
        let revoked = try access.write(.durable) { transaction -> (key: DeviceKeyRecord, changed: Bool) in
            guard var key = try transaction.deviceKeys.get(tenantID: caller.tenant.id, id: keyID), key.userID == userID
            else { throw ServiceError.notFound("device key not found") }
            let changed = key.state != .revoked
            key.state = .revoked
            try transaction.deviceKeys.update(key)
            return (key, changed)
        }
        if revoked.changed { audit(.deviceKeyDeleted, caller, userID: userID, target: keyID, method: .deviceKey) }
        return revoked.key
    }

    /// `POST /users/{id}/device-keys`: brings a key of an app's own device-key system (docs/migration.md's
    /// import). The server chooses the key id the app signs with from now on; the app finds it by
    /// its device id (My Account's list, or this answer).
    public func importDeviceKey(_ caller: ManagementCaller, userID: String, _ input: DeviceKeyImport)
        throws(ServiceError) -> DeviceKeyRecord
    {
        try caller.require(.updateUsers)
        let now = clock.now()
        let point = try DeviceKeyService.importedPoint(input.publicKey)
        let device = try DeviceKeyService.validated(input.device)
        if let created = input.createdAt {
            guard created <= now else { throw .invalidRequest("created_at is in the future") }
        }
        let keyID = try random.serviceBytes(16)
        let imported = try access.write(.durable) { transaction in
            guard let user = try transaction.users.get(tenantID: caller.tenant.id, id: userID) else {
                throw ServiceError.notFound("user not found")
            }
            guard let client = try transaction.clients.get(tenantID: caller.tenant.id, id: input.clientID),
                client.appType.isInteractive
            else { throw ServiceError.invalidRequest("client_id is not an app of this tenant") }
            let key = DeviceKeyRecord(
                tenantID: caller.tenant.id, id: Base64URL.encode(keyID), userID: user.id, clientID: client.id,
                publicKey: point, deviceID: device.id, deviceName: device.name, platform: device.platform,
                osVersion: device.osVersion, model: device.model, createdAt: input.createdAt ?? now)
            try DeviceKeyService.insert(key, replacing: false, transaction)
            return key
        }
        audit(.deviceKeyEnrolled, caller, userID: userID, target: imported.id, method: .deviceKey)
        return imported
    }
}

/// A device key an app brings from its own system.
public struct DeviceKeyImport: Sendable {
    /// The public key: a P-256 JWK, or text holding SPKI (PEM, or base64 of the DER) or the
    /// uncompressed point (base64 of 0x04 ‖ x ‖ y).
    public enum PublicKeyInput: Sendable {
        case jwk(x: String, y: String, kty: String, crv: String)
        case text(String)
    }

    public var publicKey: PublicKeyInput
    public var device: DeviceKeyDevice
    /// The app that signs with it.
    public var clientID: String
    /// When the app's system made it (default: now).
    public var createdAt: Date?

    public init(publicKey: PublicKeyInput, device: DeviceKeyDevice, clientID: String, createdAt: Date?) {
        self.publicKey = publicKey
        self.device = device
        self.clientID = clientID
        self.createdAt = createdAt
    }
}

/// One second factor as the admin pages show it (`ManagementService.mfaFactors`).
public struct MFAFactorSummary: Sendable, Hashable {
    public var id: String
    public var factor: MFAFactor
    /// False until the factor's first code confirmed it.
    public var active: Bool
    public var createdAt: Date
    /// SMS: all but the last four digits replaced by `X`.
    public var maskedPhoneNumber: String?
}
