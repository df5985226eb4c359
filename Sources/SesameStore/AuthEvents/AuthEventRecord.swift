import Foundation

/// One authentication attempt (append-only): adoption metrics and the audit log read these.
public struct AuthEventRecord: Sendable, Hashable, Codable, VersionedRecord {
    /// 2: the connection, the passkey's kind and model, and the client's platform (the adoption
    /// statistics, docs/migration.md).
    public static let currentVersion = 2
    public var version = AuthEventRecord.currentVersion
    public var tenantID: String
    public var id: String
    public var at: Date
    public var type: AuthEventKind
    public var method: AuthEventMethod
    public var outcome: AuthEventOutcome
    public var clientID: String?
    public var userID: String?
    /// From the origin the ceremony used; nil when the ceremony failed before it.
    public var platform: AuthPlatform?
    /// The connection the user belongs to.
    public var connectionID: String?
    /// A passkey event: whether the passkey syncs.
    public var passkeyKind: PasskeyKind?
    /// A passkey event: the authenticator model (16 bytes).
    public var aaguid: [UInt8]?
    /// The platform the client runs on, when the request said (its `Auth0-Client` header, a
    /// device key's registration) or the origin shows it.
    public var clientPlatform: ClientPlatform?
    /// An enrollment: true when the passkey came from a conditional create (the browser's
    /// automatic upgrade after a password sign-in, with no user gesture).
    public var conditional: Bool?
    public init(
        tenantID: String, id: String, at: Date, type: AuthEventKind, method: AuthEventMethod,
        outcome: AuthEventOutcome, clientID: String? = nil, userID: String? = nil, platform: AuthPlatform? = nil,
        connectionID: String? = nil, passkeyKind: PasskeyKind? = nil, aaguid: [UInt8]? = nil,
        clientPlatform: ClientPlatform? = nil, conditional: Bool? = nil
    ) {
        self.conditional = conditional
        self.tenantID = tenantID
        self.id = id
        self.at = at
        self.type = type
        self.method = method
        self.outcome = outcome
        self.clientID = clientID
        self.userID = userID
        self.platform = platform
        self.connectionID = connectionID
        self.passkeyKind = passkeyKind
        self.aaguid = aaguid
        self.clientPlatform = clientPlatform
    }
}

extension AuthEventRecord: BinaryCodedRecord {
    /// 2: what the adoption statistics count by.
    public static let recordFields = RecordFields<AuthEventRecord>(
        blank: AuthEventRecord(
            tenantID: "", id: "", at: .distantPast, type: .login, method: .passkey, outcome: .success),
        [
            .field("tenantID", \.tenantID),
            .field("id", \.id),
            .field("at", \.at),
            .field("type", \.type),
            .field("method", \.method),
            .field("outcome", \.outcome),
            .field("clientID", \.clientID),
            .field("userID", \.userID),
            .field("platform", \.platform),
            .field("connectionID", \.connectionID, since: 2),
            .field("passkeyKind", \.passkeyKind, since: 2),
            .field("aaguid", \.aaguid, since: 2),
            .field("clientPlatform", \.clientPlatform, since: 2),
            .field("conditional", \.conditional, since: 2),
        ])
}
