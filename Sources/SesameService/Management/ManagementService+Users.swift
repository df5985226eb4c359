import Foundation
import SesameStore

/// `/api/v2/users` and their authentication methods.
extension ManagementService {
    /// `GET /users`: `query` matches a substring of the email, username, phone number, name or id;
    /// Auth0's `field:value` form (quotes and `*` stripped) is accepted too.
    public func listUsers(
        _ caller: ManagementCaller, query: String?, _ list: ListRequest
    ) throws(ServiceError) -> ManagedList<ManagedUser> {
        try caller.require(.readUsers)
        let list = try list.validated()
        let search = try Self.searchTerm(query)
        let tenantID = caller.tenant.id
        let (items, total, names) = try access.read { transaction in
            let (users, total) = try Self.page(list) {
                try transaction.users.search(tenantID: tenantID, query: search, page: $0)
            }
            let linked = try Self.linkedIdentities(of: users, tenantID: tenantID, transaction)
            return (
                users.map { ($0, linked[$0.id] ?? []) }, total,
                try Self.connectionNames(for: users, tenantID: tenantID, transaction)
            )
        }
        return ManagedList(
            name: "users",
            items: items.map { ManagedUser($0.0, connectionName: names[$0.0.connectionID] ?? "", linked: $0.1) },
            start: list.page * list.perPage, limit: list.perPage, total: total)
    }

    /// `GET /users/{id}`.
    public func user(_ caller: ManagementCaller, id: String) throws(ServiceError) -> ManagedUser {
        try caller.require(.readUsers)
        return try access.read { transaction in
            let user = try Self.existingUser(id, caller, transaction)
            let connection = try transaction.connections.get(tenantID: caller.tenant.id, id: user.connectionID)
            let linked = try Self.linkedIdentities(of: [user], tenantID: caller.tenant.id, transaction)[user.id] ?? []
            return ManagedUser(user, connectionName: connection?.name ?? "", linked: linked)
        }
    }

    /// Each user's linked identities with their connections' names, by user id.
    static func linkedIdentities(
        of users: [UserRecord], tenantID: String, _ transaction: any StoreTransaction
    ) throws -> [String: [(LinkedIdentityRecord, String)]] {
        var names: [String: String] = [:]
        var out: [String: [(LinkedIdentityRecord, String)]] = [:]
        for user in users {
            for identity in try transaction.linkedIdentities.list(tenantID: tenantID, userID: user.id) {
                if names[identity.connectionID] == nil {
                    names[identity.connectionID] =
                        try transaction.connections.get(tenantID: tenantID, id: identity.connectionID)?.name ?? ""
                }
                out[user.id, default: []].append((identity, names[identity.connectionID] ?? ""))
            }
        }
        return out
    }

    /// `PATCH /users/{id}`: identifiers follow the connection's policy and stay unique within it
    /// (409 when taken); `blocked: true` also revokes the user's refresh tokens.
    public func updateUser(_ caller: ManagementCaller, id: String, _ patch: UserPatch) throws(ServiceError)
        -> ManagedUser
    {
        try caller.require(.updateUsers)
        let now = clock.now()
        // A new password is checked and hashed first, outside the write.
        var credential: PasswordCredential?
        if let raw = patch.password {
            let password = try PasswordText(raw)
            let connection = try access.read { transaction in
                let user = try Self.existingUser(id, caller, transaction)
                guard
                    let connection = try transaction.connections.get(tenantID: caller.tenant.id, id: user.connectionID)
                else { throw ServiceError.conflict("the user's connection no longer exists") }
                return connection
            }
            guard connection.password.enabled else {
                throw .invalidRequest("password: passwords are not enabled for the user's connection")
            }
            credential = try passwords.credential(
                for: password, connection: connection, tenant: caller.tenant, stage: .changePassword)
        }
        return try access.write(.durable) { transaction in
            let user = try Self.existingUser(id, caller, transaction)
            guard let connection = try transaction.connections.get(tenantID: caller.tenant.id, id: user.connectionID)
            else {
                throw ServiceError.conflict("the user's connection no longer exists")
            }
            if let name = patch.connection, name != connection.name {
                throw ServiceError.invalidRequest(
                    "connection must be the user's own (\(connection.name)); users do not move")
            }
            var updated = try Self.apply(patch, to: user, policy: connection.identifiers)
            updated.updatedAt = now
            if let credential { updated.password = credential.replacing(user.password) }
            for (field, changed, email, phone, username) in [
                ("email", updated.profile.email != user.profile.email, updated.profile.email, nil, nil),
                (
                    "phone_number", updated.profile.phoneNumber != user.profile.phoneNumber, nil,
                    updated.profile.phoneNumber, nil
                ),
                ("username", updated.profile.username != user.profile.username, nil, nil, updated.profile.username),
            ] as [(String, Bool, String?, String?, String?)] where changed && (email ?? phone ?? username) != nil {
                let holders = try transaction.users.withIdentifiers(
                    tenantID: caller.tenant.id, connectionID: connection.id, email: email, phoneNumber: phone,
                    username: username)
                if holders.contains(where: { $0.id != user.id }) {
                    throw ServiceError.conflict("another user of this connection already has this \(field)")
                }
            }
            try transaction.users.update(updated)
            if updated.blocked, !user.blocked {
                try transaction.refreshTokens.revokeAll(tenantID: caller.tenant.id, userID: user.id, at: now)
                try transaction.ssoSessions.deleteAll(tenantID: caller.tenant.id, userID: user.id)
            }
            return ManagedUser(updated, connectionName: connection.name)
        }
    }

    /// `DELETE /users/{id}`: the user with their passkeys; their refresh tokens are revoked (and
    /// kept until they expire, so a renewal answers Auth0's "user who doesn't exist anymore").
    public func deleteUser(_ caller: ManagementCaller, id: String) throws(ServiceError) {
        try caller.require(.deleteUsers)
        let now = clock.now()
        let user = try access.write(.durable) { transaction in
            let user = try Self.existingUser(id, caller, transaction)
            try Self.delete(user, tenant: caller.tenant, now: now, in: transaction)
            return user
        }
        audit(.successUserDeletion, caller, user: user)
    }

    /// Deletes `user` in `transaction`, as `DELETE /users/{id}` and the account page's deletion
    /// both do: every refresh token revoked (and kept until it expires), every session ended,
    /// the passkeys remembered for the Signal API, then the user with their passkeys.
    static func delete(
        _ user: UserRecord, tenant: TenantRecord, now: Date, in transaction: any StoreTransaction
    ) throws {
        try transaction.refreshTokens.revokeAll(tenantID: tenant.id, userID: user.id, at: now)
        try transaction.ssoSessions.deleteAll(tenantID: tenant.id, userID: user.id)
        try DeletedPasskeys.remember(
            try transaction.passkeys.list(tenantID: tenant.id, userID: user.id), tenant: tenant, now: now,
            in: transaction)
        try transaction.users.delete(tenantID: tenant.id, id: user.id)
    }

    /// `GET /users/{id}/authentication-methods`.
    public func authenticationMethods(_ caller: ManagementCaller, userID: String) throws(ServiceError)
        -> [AuthenticationMethod]
    {
        try caller.require(.readAuthenticationMethods)
        return try access.read { transaction in
            let user = try Self.existingUser(userID, caller, transaction)
            let password = user.usablePassword.map { AuthenticationMethod.password($0, user: user, myAccount: false) }
            return [password].compactMap { $0 }
                + (try transaction.passkeys.list(tenantID: caller.tenant.id, userID: userID)
                    .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
                    .map(AuthenticationMethod.management))
                + user.mfa.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }.map(AuthenticationMethod.management)
        }
    }

    /// How the admin pages show the authenticator of each of the user's passkeys, by formatted
    /// AAGUID: the FIDO metadata's description and icon, else the AAGUID table's name, exactly as
    /// the account page does (docs/mds.md).
    public func authenticatorDisplays(_ caller: ManagementCaller, userID: String) throws(ServiceError) -> [String:
        AuthenticatorDisplay]
    {
        try caller.require(.readAuthenticationMethods)
        return try access.read { transaction in
            let user = try Self.existingUser(userID, caller, transaction)
            let passkeys = try transaction.passkeys.list(tenantID: caller.tenant.id, userID: user.id)
            return try MetadataService.display(aaguids: passkeys.map(\.aaguid), in: transaction)
        }
    }

    /// `DELETE /users/{id}/authentication-methods/{method_id}`: a passkey, the password or a second
    /// factor. An operator may remove a user's last passkey (e.g. a lost device; the user signs up
    /// again or is helped otherwise), and a second factor is how support helps a user who lost it
    /// (the recovery code goes with the last factor, as when the user removes it). A passkey takes
    /// the refresh families of its logins with it; a password or a factor, every refresh family of
    /// the user. The user is emailed. Beside the call's `sapi` entry, the removal has its own
    /// (`sesame_passkey_deleted`, `sesame_password_deleted`, `gd_unenroll` for each factor).
    public func deleteAuthenticationMethod(
        _ caller: ManagementCaller, userID: String, methodID: String
    ) throws(ServiceError) {
        try caller.require(.deleteAuthenticationMethods)
        let now = clock.now()
        let (user, removal, removed) = try access.write(.durable) {
            transaction -> (UserRecord, CredentialNotices.Removal, [(AuditEventType, AuthEventMethod, String)]) in
            var user = try Self.existingUser(userID, caller, transaction)
            // An administrator may remove a password even when nothing else is left (as Auth0 does).
            if let password = user.password, password.id == methodID {
                user.password = nil
                user.updatedAt = now
                try transaction.users.update(user)
                try transaction.refreshTokens.revokeAll(tenantID: caller.tenant.id, userID: user.id, at: now)
                return (user, .password, [(.passwordDeleted, .password, password.id)])
            }
            if user.mfa.contains(where: { $0.id == methodID }) {
                let gone = try Self.removeFactors(of: &user, { $0.id == methodID }, caller, now, transaction)
                return (
                    user, user.mfa.isEmpty ? .secondFactors : .secondFactor,
                    gone.map { (.mfaUnenrolled, MFAService.method($0.factor), $0.id) }
                )
            }
            guard methodID.utf8.count <= 128,
                let passkey = try transaction.passkeys.get(tenantID: caller.tenant.id, id: methodID),
                passkey.userID == userID
            else {
                throw ServiceError.notFound("the user has no authentication method with this id")
            }
            try transaction.passkeys.delete(tenantID: caller.tenant.id, id: passkey.id)
            try DeletedPasskeys.remember([passkey], tenant: caller.tenant, now: now, in: transaction)
            try transaction.refreshTokens.revokeAll(tenantID: caller.tenant.id, passkeyID: passkey.id, at: now)
            return (user, .passkey, [(.passkeyDeleted, .passkey, passkey.id)])
        }
        for (type, method, target) in removed { audit(type, caller, user: user, target: target, method: method) }
        notices.removedByAdministrator(removal, tenant: caller.tenant, user: user)
    }

    /// Resets a user's two-step verification (the admin page's support path for a user who lost
    /// every factor): every factor and the recovery code go in one write, with every refresh family
    /// of the user, and the user is emailed; they set up a factor again at their next sign-in where
    /// the policy asks for one. 404 for an unknown user; nothing happens for a user with no factor.
    public func resetSecondFactors(_ caller: ManagementCaller, userID: String) throws(ServiceError) {
        try caller.require(.deleteAuthenticationMethods)
        let now = clock.now()
        let (user, gone) = try access.write(.durable) { transaction -> (UserRecord, [MFAEnrollment]) in
            var user = try Self.existingUser(userID, caller, transaction)
            guard !user.mfa.isEmpty else { return (user, []) }
            return (user, try Self.removeFactors(of: &user, { _ in true }, caller, now, transaction))
        }
        guard !gone.isEmpty else { return }
        for factor in gone {
            audit(.mfaUnenrolled, caller, user: user, target: factor.id, method: MFAService.method(factor.factor))
        }
        notices.removedByAdministrator(.secondFactors, tenant: caller.tenant, user: user)
    }

    // MARK: Helpers

    /// Removes the factors `matching` from `user` (`UserRecord.removeFactors`: the recovery code
    /// goes with the last factor) and stores it, and revokes every refresh family of the user.
    /// Returns what went.
    static func removeFactors(
        of user: inout UserRecord, _ matching: (MFAEnrollment) -> Bool, _ caller: ManagementCaller, _ now: Date,
        _ transaction: any StoreTransaction
    ) throws -> [MFAEnrollment] {
        let gone = user.removeFactors(where: matching)
        user.updatedAt = now
        try transaction.users.update(user)
        try transaction.refreshTokens.revokeAll(tenantID: caller.tenant.id, userID: user.id, at: now)
        return gone
    }

    static func existingUser(
        _ id: String, _ caller: ManagementCaller, _ transaction: any StoreTransaction
    ) throws -> UserRecord {
        guard id.utf8.count <= 256, let user = try transaction.users.get(tenantID: caller.tenant.id, id: id) else {
            throw ServiceError.notFound("no user with this id")
        }
        return user
    }

    static func connectionNames(
        for users: [UserRecord], tenantID: String, _ transaction: any StoreTransaction
    ) throws -> [String: String] {
        var names: [String: String] = [:]
        for id in Set(users.map(\.connectionID)) {
            names[id] = try transaction.connections.get(tenantID: tenantID, id: id)?.name
        }
        return names
    }

    /// The substring to search for: `q` as given, or the value of Auth0's `field:"value*"` form.
    static func searchTerm(_ query: String?) throws(ServiceError) -> String? {
        guard var term = query?.trimmingCharacters(in: .whitespaces), !term.isEmpty else { return nil }
        guard term.count <= 256 else { throw .invalidRequest("q is longer than 256 characters") }
        // No identifier or profile text may hold these, so such a term could match nothing; and
        // PostgreSQL would cut a text parameter at a NUL where SQLite keeps it.
        guard !TextRules.containsUnsafe(term) else {
            throw .invalidRequest("q must not contain control, invisible or bidirectional formatting characters")
        }
        for field in ["email", "username", "phone_number", "name", "user_id"] where term.hasPrefix(field + ":") {
            term = String(term.dropFirst(field.count + 1))
        }
        term = term.trimmingCharacters(in: CharacterSet(charactersIn: "\"*"))
        return term.isEmpty ? nil : TextRules.nfc(term)
    }

    static func apply(_ patch: UserPatch, to user: UserRecord, policy: IdentifierPolicy) throws(ServiceError)
        -> UserRecord
    {
        var updated = user
        var profile = user.profile
        profile.email = try identifier(
            patch.email.map(TextRules.email), profile.email, "email", policy.email, valid: ProfileValidation.isEmail)
        profile.phoneNumber = try identifier(
            patch.phoneNumber, profile.phoneNumber, "phone_number", policy.phoneNumber, valid: ProfileValidation.isE164)
        profile.username = try identifier(
            patch.username.map(TextRules.username), profile.username, "username", policy.username,
            valid: ProfileValidation.isUsername)
        if profile.email == nil, profile.phoneNumber == nil, profile.username == nil {
            throw .invalidRequest("the user needs an identifier: email, phone_number or username")
        }
        if profile.email != user.profile.email { profile.emailVerified = false }
        if let verified = patch.emailVerified { profile.emailVerified = verified }
        for (attribute, change) in patch.attributes {
            switch change {
            case .keep: break
            case .remove: profile[attribute] = nil
            case .set(let value): profile[attribute] = try ProfileValidation.checked(attribute, value)
            }
        }
        updated.profile = profile
        if let changes = patch.userMetadata {
            var metadata = user.userMetadata
            for (key, value) in changes {
                try ProfileValidation.checkMetadata(key: key, value: value)
                if let value {
                    metadata[key] = value
                } else {
                    metadata.removeValue(forKey: key)
                }
            }
            guard metadata.count <= ProfileValidation.maxMetadataValues else {
                throw .invalidRequest("user_metadata holds at most \(ProfileValidation.maxMetadataValues) values")
            }
            updated.userMetadata = metadata
        }
        if let blocked = patch.blocked { updated.blocked = blocked }
        return updated
    }

    private static func identifier(
        _ change: FieldChange<String>, _ current: String?, _ field: String, _ rule: IdentifierRule,
        valid: (String) -> Bool
    ) throws(ServiceError) -> String? {
        switch change {
        case .keep:
            return current
        case .remove:
            guard rule != .required else { throw .invalidRequest("\(field) is required by the user's connection") }
            return nil
        case .set(let value):
            guard rule != .disabled else { throw .invalidRequest("\(field) is not enabled for the user's connection") }
            guard valid(value) else { throw .invalidRequest("\(field) is not valid") }
            return value
        }
    }

}
