import Foundation
import SesameCrypto
import SesameStore
import SesameWire

/// What `POST /api/v2/users` carries (Auth0's fields): a user of a database connection with a
/// `password`, or with `custom_password_hash` from another system.
public struct UserCreation: Sendable {
    public var connection: String?
    public var profile: SignupProfileInput
    public var emailVerified: Bool?
    public var blocked: Bool?
    public var metadata: [String: String]
    public var password: String?
    public var customPasswordHash: CustomPasswordHash?
    public init(
        connection: String?, profile: SignupProfileInput, emailVerified: Bool? = nil, blocked: Bool? = nil,
        metadata: [String: String] = [:], password: String? = nil, customPasswordHash: CustomPasswordHash? = nil
    ) {
        self.connection = connection
        self.profile = profile
        self.emailVerified = emailVerified
        self.blocked = blocked
        self.metadata = metadata
        self.password = password
        self.customPasswordHash = customPasswordHash
    }
}

/// Auth0's `custom_password_hash`: a hash made by another system, checked once at the user's next
/// login and then replaced by Argon2id.
public struct CustomPasswordHash: Sendable {
    /// `bcrypt`, `argon2`, `pbkdf2`, or `sha256` (also `sha256-salted`).
    public var algorithm: String
    /// `hash.value`.
    public var value: String
    /// `hash.encoding`: `utf8` for the string forms; `hex` or `base64` for SHA-256's digest.
    public var encoding: String?
    /// `salt.value`, `salt.encoding` (`utf8`, `hex` or `base64`; utf8 by default) and
    /// `salt.position` (`prefix` or `suffix`; prefix by default), SHA-256 only.
    public var salt: String?
    public var saltEncoding: String?
    public var saltPosition: String?
    /// `password.encoding`: only `utf8`.
    public var passwordEncoding: String?
    public init(
        algorithm: String, value: String, encoding: String? = nil, salt: String? = nil, saltEncoding: String? = nil,
        saltPosition: String? = nil, passwordEncoding: String? = nil
    ) {
        self.algorithm = algorithm
        self.value = value
        self.encoding = encoding
        self.salt = salt
        self.saltEncoding = saltEncoding
        self.saltPosition = saltPosition
        self.passwordEncoding = passwordEncoding
    }

    /// The scheme and the stored form; 400 naming the field for anything malformed.
    func stored() throws(ServiceError) -> (PasswordHashScheme, String) {
        let field = "custom_password_hash"
        if let passwordEncoding, passwordEncoding != "utf8" {
            throw .invalidRequest("\(field).password.encoding must be utf8")
        }
        func refuse(_ error: any Error) -> ServiceError {
            let why = (error as? CryptoError).map { "\($0)" } ?? "malformed"
            return .invalidRequest("\(field).hash.value is not a valid \(algorithm) hash: \(why.prefix(200))")
        }
        switch algorithm {
        case "bcrypt", "argon2", "pbkdf2":
            if let encoding, encoding != "utf8" {
                throw .invalidRequest("\(field).hash.encoding must be utf8 for \(algorithm)")
            }
            guard salt == nil else { throw .invalidRequest("\(field).salt: \(algorithm) carries its salt in the hash") }
            do {
                switch algorithm {
                case "bcrypt":
                    try ImportedPasswordHash.validateBcrypt(value)
                    return (.bcrypt, value)
                case "argon2":
                    try ImportedPasswordHash.validateArgon2(value)
                    return (.argon2, value)
                default:
                    _ = try ImportedPasswordHash.PBKDF2(phc: value)
                    return (.pbkdf2, value)
                }
            } catch {
                throw refuse(error)
            }
        case "sha256", "sha256-salted":
            guard let digest = Self.decode(value, encoding: encoding, field: "\(field).hash") else {
                throw .invalidRequest("\(field).hash.encoding must be hex or base64, and hash.value in it")
            }
            let saltBytes: [UInt8]
            if let salt {
                guard let decoded = Self.decode(salt, encoding: saltEncoding ?? "utf8", field: "\(field).salt") else {
                    throw .invalidRequest("\(field).salt.encoding must be utf8, hex or base64, and salt.value in it")
                }
                saltBytes = decoded
            } else {
                saltBytes = []
            }
            guard let position = ImportedPasswordHash.SaltPosition(rawValue: saltPosition ?? "prefix") else {
                throw .invalidRequest("\(field).salt.position must be prefix or suffix")
            }
            do {
                return (
                    .sha256Salted,
                    try ImportedPasswordHash.SaltedSHA256(position: position, salt: saltBytes, hash: digest).stored
                )
            } catch {
                throw refuse(error)
            }
        default:
            throw .invalidRequest("\(field).algorithm must be one of bcrypt, argon2, pbkdf2, sha256")
        }
    }

    /// `text` in `encoding` (`utf8`, `hex` or `base64`); nil when it does not decode.
    static func decode(_ text: String, encoding: String?, field: String) -> [UInt8]? {
        switch encoding {
        case "utf8": return Array(text.utf8)
        case "hex":
            let digits = Array(text.utf8)
            guard digits.count.isMultiple(of: 2) else { return nil }
            var bytes: [UInt8] = []
            for index in stride(from: 0, to: digits.count, by: 2) {
                guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
                    return nil
                }
                bytes.append(byte)
            }
            return bytes
        case "base64":
            return Base64.decodeStandard(text)
        default:
            return nil
        }
    }
}

extension ManagementService {
    /// `POST /users`: a user of a database connection, with a password (checked against the
    /// connection's rules) or an imported hash. 409 when an identifier is taken in the connection.
    public func createUser(_ caller: ManagementCaller, _ input: UserCreation) throws(ServiceError) -> ManagedUser {
        try caller.require(.createUsers)
        let now = clock.now()
        guard let name = input.connection, !name.isEmpty else { throw .invalidRequest("connection is required") }
        let connection = try access.read { transaction in
            guard name.utf8.count <= 128,
                let connection = try transaction.connections.get(tenantID: caller.tenant.id, name: name)
            else { throw ServiceError.invalidRequest("connection does not name a connection of this tenant") }
            return connection
        }
        guard connection.password.enabled else {
            throw .invalidRequest("connection \(connection.name) has passwords off; its users sign up with a passkey")
        }
        var profile = try ProfileValidation.validate(
            input.profile, metadata: input.metadata, policy: connection.identifiers)
        profile.emailVerified = input.emailVerified ?? false
        let credential: PasswordCredential
        switch (input.password, input.customPasswordHash) {
        case (let raw?, nil):
            credential = try passwords.credential(
                for: try PasswordText(raw), connection: connection, tenant: caller.tenant, stage: .signup)
        case (nil, let custom?):
            let (scheme, hash) = try custom.stored()
            credential = PasswordCredential(
                id: "password|" + Hex.lowercase(try random.serviceBytes(12)), scheme: scheme, hash: hash,
                createdAt: now, changedAt: now)
        case (nil, nil):
            throw .invalidRequest("password or custom_password_hash is required")
        case (.some, .some):
            throw .invalidRequest("give password or custom_password_hash, not both")
        }
        let user = UserRecord(
            tenantID: caller.tenant.id, id: "sesame|" + Hex.lowercase(try random.serviceBytes(12)),
            connectionID: connection.id, userHandle: try random.serviceBytes(32), profile: profile,
            userMetadata: input.metadata, blocked: input.blocked ?? false, createdAt: now, updatedAt: now,
            password: credential)
        try access.write(.durable) { transaction in
            guard try transaction.connections.get(tenantID: caller.tenant.id, id: connection.id) != nil else {
                throw ServiceError.conflict("the connection was deleted meanwhile")
            }
            if try PasswordService.isTaken(profile, connection: connection, in: transaction) {
                throw ServiceError.conflict("The user already exists.")
            }
            do {
                try transaction.users.insert(user)
            } catch StoreError.conflict(_) {
                throw ServiceError.conflict("The user already exists.")
            }
        }
        return ManagedUser(user, connectionName: connection.name)
    }
}
