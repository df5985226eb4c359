import Foundation
import SesameStore

extension PasswordService {
    /// How recent a sign-in must be to set a first password without knowing one.
    public static let freshSignIn: TimeInterval = 600

    /// The account page's password change. With a password, the current one must be given (and
    /// counts against the brute-force limits as a login does); without one, the session's sign-in
    /// must be at most `freshSignIn` old. The new password meets the connection's rules and the
    /// change stage of breached-password detection. Every refresh token is revoked and every
    /// other session ended; `keepSession` (the one making the change) stays.
    public func changePassword(
        tenant: TenantRecord, userID: String, current: String?, new: String?, authTime: Date, keepSession: String?,
        address: String
    ) throws(ServiceError) {
        let now = clock.now()
        guard let new, !new.isEmpty else { throw .invalidRequest("the new password is required") }
        let text = try PasswordText(new)
        let (user, connection) = try access.read { transaction -> (UserRecord, ConnectionRecord) in
            guard let user = try transaction.users.get(tenantID: tenant.id, id: userID), !user.blocked,
                let connection = try transaction.connections.get(tenantID: tenant.id, id: user.connectionID)
            else { throw ServiceError.invalidToken("the signed-in user no longer exists") }
            return (user, connection)
        }
        guard connection.password.enabled else {
            throw .invalidRequest("passwords are not enabled for connection \(connection.name)")
        }
        // A password an upgrade replaced no longer proves anything: choosing one again needs a fresh sign-in.
        if let credential = user.usablePassword {
            guard let current, !current.isEmpty else { throw .invalidRequest("the current password is required") }
            let currentText = try PasswordText(current)
            let identifier = user.profile.email ?? user.profile.username ?? user.id
            let accountKey = AttemptLimits.accountKey(user: user, identifier: identifier, address: address)
            let addressKey = AttemptLimits.addressKey(address)
            try access.write(.relaxed) { transaction in
                try limits.reserve(
                    tenantID: tenant.id, account: accountKey, address: addressKey, now: now, in: transaction)
            }
            guard try verify(currentText, credential) else { throw .wrongCredentials }
            try access.write(.relaxed) { transaction in
                try limits.succeeded(
                    tenantID: tenant.id, account: accountKey, address: addressKey, now: now, in: transaction)
            }
        } else {
            guard now.timeIntervalSince(authTime) <= Self.freshSignIn else { throw .reauthenticationRequired }
        }
        let fresh = try credential(for: text, connection: connection, tenant: tenant, stage: .changePassword)
        try access.write(.durable) { transaction in
            guard var stored = try transaction.users.get(tenantID: tenant.id, id: userID),
                stored.password?.hash == user.password?.hash
            else { throw ServiceError.conflict("the password changed meanwhile; try again") }
            stored.password = fresh.replacing(stored.password)
            stored.passwordReplacement = nil
            stored.passwordReplacedAt = nil
            stored.updatedAt = now
            try transaction.users.update(stored)
            try transaction.refreshTokens.revokeAll(tenantID: tenant.id, userID: userID, at: now)
            for session in try transaction.ssoSessions.list(tenantID: tenant.id, userID: userID)
            where session.id != keepSession {
                try transaction.ssoSessions.delete(tenantID: tenant.id, id: session.id)
            }
        }
        events.record(
            tenantID: tenant.id, type: .passwordChange, method: .password, outcome: .success, at: now, clientID: nil,
            userID: userID)
    }

    /// Sets `userID`'s password with no old one to check (an account recovery that proved the
    /// email): the connection's rules and the change stage of breach detection apply.
    func setPassword(tenant: TenantRecord, userID: String, password: String?) throws(ServiceError) {
        guard let password, !password.isEmpty else { throw .invalidRequest("the new password is required") }
        let text = try PasswordText(password)
        let now = clock.now()
        let connection = try access.read { transaction -> ConnectionRecord in
            guard let user = try transaction.users.get(tenantID: tenant.id, id: userID),
                let connection = try transaction.connections.get(tenantID: tenant.id, id: user.connectionID)
            else { throw ServiceError.invalidToken("the user no longer exists") }
            return connection
        }
        guard connection.password.enabled else {
            throw .invalidRequest("passwords are not enabled for connection \(connection.name)")
        }
        let fresh = try credential(for: text, connection: connection, tenant: tenant, stage: .changePassword)
        try access.write(.durable) { transaction in
            guard var stored = try transaction.users.get(tenantID: tenant.id, id: userID) else {
                throw ServiceError.invalidToken("the user no longer exists")
            }
            stored.password = fresh.replacing(stored.password)
            stored.passwordReplacement = nil
            stored.passwordReplacedAt = nil
            stored.updatedAt = now
            try transaction.users.update(stored)
        }
        events.record(
            tenantID: tenant.id, type: .passwordChange, method: .password, outcome: .success, at: now, clientID: nil,
            userID: userID)
    }
}
