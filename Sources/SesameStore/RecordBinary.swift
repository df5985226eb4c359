import Foundation

/// A record with a hand-written binary form: the records a login or a refresh reads (passkey,
/// user, refresh token). Foundation's `JSONDecoder` cost about 40 µs per record on that path
/// (docs/BENCHMARKS.md); this form costs a few hundred nanoseconds and checks every field as it goes.
///
/// The form: the marker byte `RecordBinary.marker` (never `{`, so a row written as JSON by an older
/// Sesame is told apart by its first byte), the record's version as a UInt16, then the fields in a
/// fixed order, each as `RecordWriter` writes it. A new field is appended and bumps the version.
public protocol BinaryCodedRecord: VersionedRecord {
    /// Writes every field after the version.
    func encode(to writer: inout RecordWriter)
    /// Reads every field after the version; `version` is the one stored (at most `currentVersion`).
    init(from reader: inout RecordReader, version: Int) throws(RecordReader.Failure)
}

/// Encoding and decoding of `BinaryCodedRecord`s.
public enum RecordBinary {
    /// The first byte of a binary record (format 1).
    public static let marker: UInt8 = 0xB1

    /// True when `bytes` hold a binary record (else, JSON from an older Sesame).
    public static func isBinary(_ bytes: some Collection<UInt8>) -> Bool { bytes.first == marker }

    /// The binary form of `record`. It carries the current version whatever `record.version` says:
    /// `encode(to:)` writes every field of the current version, so a record read from an older
    /// row is stored upgraded.
    public static func encode<R: BinaryCodedRecord>(_ record: R) -> [UInt8] {
        var writer = RecordWriter()
        writer.byte(marker)
        writer.uint16(UInt16(clamping: R.currentVersion))
        record.encode(to: &writer)
        return writer.bytes
    }

    /// The record in `bytes`; `corrupt` naming `table` and the field that does not read, or the
    /// version when the row comes from a newer Sesame.
    public static func decode<R: BinaryCodedRecord>(_ type: R.Type, from bytes: [UInt8], table: String) throws -> R {
        var reader = RecordReader(bytes)
        do {
            guard try reader.byte("format") == marker else {
                throw RecordReader.Failure(field: "format", why: "unknown")
            }
            let version = Int(try reader.uint16("version"))
            guard version <= R.currentVersion else {
                throw StoreError.corrupt(
                    "a row of \(table) has version \(version), newer than this Sesame reads (\(R.currentVersion))")
            }
            let record = try R(from: &reader, version: version)
            guard reader.isAtEnd else { throw RecordReader.Failure(field: "end", why: "bytes follow the last field") }
            return record
        } catch let failure as RecordReader.Failure {
            throw StoreError.corrupt("a row of \(table) does not decode: field \(failure.field): \(failure.why)")
        }
    }
}

/// Appends fields in the binary record form: integers little-endian, a length (UInt32) before
/// strings, byte strings and lists, a presence byte before optionals, dates as the bit pattern of
/// the `Double` seconds `Date` holds (so they round-trip exactly).
public struct RecordWriter {
    public private(set) var bytes: [UInt8] = []

    public init() { bytes.reserveCapacity(256) }

    public mutating func byte(_ value: UInt8) { bytes.append(value) }
    public mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    public mutating func uint16(_ value: UInt16) { littleEndian(UInt64(value), count: 2) }
    public mutating func uint32(_ value: UInt32) { littleEndian(UInt64(value), count: 4) }
    public mutating func uint64(_ value: UInt64) { littleEndian(value, count: 8) }
    public mutating func date(_ value: Date) { uint64(value.timeIntervalSinceReferenceDate.bitPattern) }

    public mutating func bytes(_ value: [UInt8]) {
        uint32(UInt32(clamping: value.count))
        bytes.append(contentsOf: value)
    }

    public mutating func string(_ value: String) {
        let utf8 = value.utf8
        uint32(UInt32(clamping: utf8.count))
        bytes.append(contentsOf: utf8)
    }

    public mutating func strings(_ values: [String]) {
        uint32(UInt32(clamping: values.count))
        for value in values { string(value) }
    }

    /// A string map, keys in sorted order (the same record always gives the same bytes).
    public mutating func stringMap(_ map: [String: String]) {
        uint32(UInt32(clamping: map.count))
        for key in map.keys.sorted() {
            string(key)
            string(map[key] ?? "")
        }
    }

    public mutating func optionalString(_ value: String?) {
        guard let value else { return bool(false) }
        bool(true)
        string(value)
    }

    public mutating func optionalDate(_ value: Date?) {
        guard let value else { return bool(false) }
        bool(true)
        date(value)
    }

    /// A signed integer (lifetimes, limits) as its 64-bit two's complement.
    public mutating func int(_ value: Int) { uint64(UInt64(bitPattern: Int64(value))) }

    public mutating func optionalBool(_ value: Bool?) {
        guard let value else { return bool(false) }
        bool(true)
        bool(value)
    }

    public mutating func optionalBytes(_ value: [UInt8]?) {
        guard let value else { return bool(false) }
        bool(true)
        bytes(value)
    }

    /// A list of closed-vocabulary values, by raw value.
    public mutating func values<Value: RawRepresentable>(_ values: [Value]) where Value.RawValue == String {
        strings(values.map(\.rawValue))
    }

    /// A list of `count` then each element as `element` writes it.
    public mutating func list<Element>(_ elements: [Element], _ element: (inout RecordWriter, Element) -> Void) {
        uint32(UInt32(clamping: elements.count))
        for item in elements { element(&self, item) }
    }

    private mutating func littleEndian(_ value: UInt64, count: Int) {
        for shift in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(shift)))) }
    }
}

/// Reads fields written by `RecordWriter`, each by name, so a damaged row is reported by the field
/// that does not read. Every length is checked against what remains; strings must be UTF-8.
public struct RecordReader {
    /// Why a field does not read.
    public struct Failure: Error, Equatable {
        public let field: String
        public let why: String
        public init(field: String, why: String) {
            self.field = field
            self.why = why
        }
    }

    private let input: [UInt8]
    private var offset = 0

    public init(_ input: [UInt8]) { self.input = input }

    public var isAtEnd: Bool { offset == input.count }

    public mutating func byte(_ field: String) throws(Failure) -> UInt8 {
        guard offset < input.count else { throw Failure(field: field, why: "the row ends early") }
        defer { offset += 1 }
        return input[offset]
    }

    public mutating func bool(_ field: String) throws(Failure) -> Bool {
        switch try byte(field) {
        case 0: return false
        case 1: return true
        default: throw Failure(field: field, why: "not a boolean")
        }
    }

    public mutating func uint16(_ field: String) throws(Failure) -> UInt16 {
        UInt16(truncatingIfNeeded: try littleEndian(field, count: 2))
    }
    public mutating func uint32(_ field: String) throws(Failure) -> UInt32 {
        UInt32(truncatingIfNeeded: try littleEndian(field, count: 4))
    }
    public mutating func uint64(_ field: String) throws(Failure) -> UInt64 { try littleEndian(field, count: 8) }

    public mutating func date(_ field: String) throws(Failure) -> Date {
        let seconds = Double(bitPattern: try uint64(field))
        guard seconds.isFinite else { throw Failure(field: field, why: "not a time") }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    public mutating func bytes(_ field: String) throws(Failure) -> [UInt8] {
        let count = Int(try uint32(field))
        guard count <= input.count - offset else { throw Failure(field: field, why: "the row ends early") }
        defer { offset += count }
        return Array(input[offset..<offset + count])
    }

    public mutating func string(_ field: String) throws(Failure) -> String {
        let count = Int(try uint32(field))
        guard count <= input.count - offset else { throw Failure(field: field, why: "the row ends early") }
        defer { offset += count }
        let slice = input[offset..<offset + count]
        // ASCII (ids, most names) is valid as it is; the generic validation is the slow path.
        if slice.allSatisfy({ $0 < 0x80 }) { return String(decoding: slice, as: UTF8.self) }
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw Failure(field: field, why: "not UTF-8")
        }
        return text
    }

    public mutating func strings(_ field: String) throws(Failure) -> [String] {
        let count = Int(try uint32(field))
        // Each string takes at least its 4-byte length: a count beyond that is damage, not a list.
        guard count <= (input.count - offset) / 4 else { throw Failure(field: field, why: "the row ends early") }
        var values: [String] = []
        values.reserveCapacity(count)
        for index in 0..<count { values.append(try string("\(field)[\(index)]")) }
        return values
    }

    public mutating func stringMap(_ field: String) throws(Failure) -> [String: String] {
        let count = Int(try uint32(field))
        guard count <= (input.count - offset) / 8 else { throw Failure(field: field, why: "the row ends early") }
        var map: [String: String] = [:]
        map.reserveCapacity(count)
        for _ in 0..<count {
            let key = try string(field)
            map[key] = try string("\(field).\(key)")
        }
        return map
    }

    public mutating func optionalString(_ field: String) throws(Failure) -> String? {
        try bool(field) ? try string(field) : nil
    }

    public mutating func optionalDate(_ field: String) throws(Failure) -> Date? {
        try bool(field) ? try date(field) : nil
    }

    public mutating func int(_ field: String) throws(Failure) -> Int {
        let value = Int64(bitPattern: try uint64(field))
        guard let int = Int(exactly: value) else { throw Failure(field: field, why: "out of range") }
        return int
    }

    public mutating func optionalBool(_ field: String) throws(Failure) -> Bool? {
        try bool(field) ? try bool(field) : nil
    }

    public mutating func optionalBytes(_ field: String) throws(Failure) -> [UInt8]? {
        try bool(field) ? try bytes(field) : nil
    }

    /// A list of closed-vocabulary values; an unknown one is a failure, never dropped or defaulted.
    public mutating func values<Value: RawRepresentable>(_ type: Value.Type, _ field: String) throws(Failure)
        -> [Value]
    where Value.RawValue == String {
        let raws = try strings(field)
        var values: [Value] = []
        values.reserveCapacity(raws.count)
        for (index, raw) in raws.enumerated() {
            guard let value = Value(rawValue: raw) else {
                throw Failure(
                    field: "\(field)[\(index)]", why: "unknown value \(String(reflecting: String(raw.prefix(64))))")
            }
            values.append(value)
        }
        return values
    }

    /// A list written by `RecordWriter.list`; each element takes at least `minimumBytes`.
    public mutating func list<Element>(
        _ field: String, minimumBytes: Int, _ element: (inout RecordReader, String) throws(Failure) -> Element
    ) throws(Failure) -> [Element] {
        let count = Int(try uint32(field))
        guard count <= (input.count - offset) / max(1, minimumBytes) else {
            throw Failure(field: field, why: "the row ends early")
        }
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for index in 0..<count { elements.append(try element(&self, "\(field)[\(index)]")) }
        return elements
    }

    /// A closed vocabulary value by its raw value; an unknown one is a failure, never a default.
    public mutating func value<Value: RawRepresentable>(_ type: Value.Type, _ field: String) throws(Failure) -> Value
    where Value.RawValue == String {
        let raw = try string(field)
        guard let value = Value(rawValue: raw) else {
            throw Failure(field: field, why: "unknown value \(String(reflecting: String(raw.prefix(64))))")
        }
        return value
    }

    /// An optional closed vocabulary value (written with `optionalString`).
    public mutating func optionalValue<Value: RawRepresentable>(_ type: Value.Type, _ field: String) throws(Failure)
        -> Value?
    where Value.RawValue == String {
        guard let raw = try optionalString(field) else { return nil }
        guard let value = Value(rawValue: raw) else {
            throw Failure(field: field, why: "unknown value \(String(reflecting: String(raw.prefix(64))))")
        }
        return value
    }

    private mutating func littleEndian(_ field: String, count: Int) throws(Failure) -> UInt64 {
        guard count <= input.count - offset else { throw Failure(field: field, why: "the row ends early") }
        var value: UInt64 = 0
        for index in 0..<count { value |= UInt64(input[offset + index]) << (8 * UInt64(index)) }
        offset += count
        return value
    }
}

// MARK: The hot records

extension UserRecord: BinaryCodedRecord {
    public func encode(to writer: inout RecordWriter) {
        writer.string(tenantID)
        writer.string(id)
        writer.string(connectionID)
        writer.bytes(userHandle)
        writer.optionalString(profile.email)
        writer.bool(profile.emailVerified)
        writer.optionalString(profile.phoneNumber)
        writer.optionalString(profile.username)
        writer.optionalString(profile.name)
        writer.optionalString(profile.givenName)
        writer.optionalString(profile.familyName)
        writer.optionalString(profile.nickname)
        writer.optionalString(profile.picture)
        writer.stringMap(userMetadata)
        writer.bool(blocked)
        writer.date(createdAt)
        writer.date(updatedAt)
        writer.optionalDate(lastLoginAt)
        writer.bool(password != nil)
        if let password {
            writer.string(password.id)
            writer.string(password.scheme.rawValue)
            writer.string(password.hash)
            writer.date(password.createdAt)
            writer.date(password.changedAt)
        }
        writer.list(mfa) { writer, enrollment in
            writer.string(enrollment.id)
            writer.string(enrollment.factor.rawValue)
            writer.bool(enrollment.active)
            writer.date(enrollment.createdAt)
            writer.bytes(enrollment.sealedSecret)
            writer.bool(enrollment.lastUsedStep != nil)
            if let step = enrollment.lastUsedStep { writer.uint64(UInt64(bitPattern: step)) }
            writer.optionalString(enrollment.phoneNumber)
            writer.bytes(enrollment.codeHash)
        }
        writer.optionalDate(passkeyPromptSnoozedUntil)
        writer.values(passkeyPlatforms)
        writer.values(passwordReplacement.map { [$0] } ?? [])
        writer.optionalDate(passwordReplacedAt)
    }

    public init(from reader: inout RecordReader, version: Int) throws(RecordReader.Failure) {
        let tenantID = try reader.string("tenantID")
        let id = try reader.string("id")
        let connectionID = try reader.string("connectionID")
        let userHandle = try reader.bytes("userHandle")
        let profile = UserProfile(
            email: try reader.optionalString("profile.email"), emailVerified: try reader.bool("profile.emailVerified"),
            phoneNumber: try reader.optionalString("profile.phoneNumber"),
            username: try reader.optionalString("profile.username"), name: try reader.optionalString("profile.name"),
            givenName: try reader.optionalString("profile.givenName"),
            familyName: try reader.optionalString("profile.familyName"),
            nickname: try reader.optionalString("profile.nickname"),
            picture: try reader.optionalString("profile.picture"))
        self.init(
            tenantID: tenantID, id: id, connectionID: connectionID, userHandle: userHandle, profile: profile,
            userMetadata: try reader.stringMap("userMetadata"), blocked: try reader.bool("blocked"),
            createdAt: try reader.date("createdAt"), updatedAt: try reader.date("updatedAt"),
            lastLoginAt: try reader.optionalDate("lastLoginAt"))
        // Version 2 added the password.
        if version >= 2, try reader.bool("password") {
            password = PasswordCredential(
                id: try reader.string("password.id"),
                scheme: try reader.value(PasswordHashScheme.self, "password.scheme"),
                hash: try reader.string("password.hash"), createdAt: try reader.date("password.createdAt"),
                changedAt: try reader.date("password.changedAt"))
        }
        if version >= 2 {
            mfa = try reader.list("mfa", minimumBytes: 20) { reader, field throws(RecordReader.Failure) in
                let id = try reader.string("\(field).id")
                let factor = try reader.value(MFAFactor.self, "\(field).factor")
                let active = try reader.bool("\(field).active")
                let createdAt = try reader.date("\(field).createdAt")
                let secret = try reader.bytes("\(field).sealedSecret")
                let step: Int64? =
                    try reader.bool("\(field).lastUsedStep")
                    ? Int64(bitPattern: try reader.uint64("\(field).step")) : nil
                return MFAEnrollment(
                    id: id, factor: factor, active: active, createdAt: createdAt, sealedSecret: secret,
                    lastUsedStep: step, phoneNumber: try reader.optionalString("\(field).phoneNumber"),
                    codeHash: try reader.bytes("\(field).codeHash"))
            }
        }
        if version >= 3 {
            passkeyPromptSnoozedUntil = try reader.optionalDate("passkeyPromptSnoozedUntil")
            passkeyPlatforms = try reader.values(ClientPlatform.self, "passkeyPlatforms")
        }
        if version >= 4 {
            passwordReplacement = try reader.values(PasswordReplacement.self, "passwordReplacement").first
            passwordReplacedAt = try reader.optionalDate("passwordReplacedAt")
        }
        // Read from an older row, it is the current version now (with no password).
        self.version = Self.currentVersion
    }
}

extension PasskeyRecord: BinaryCodedRecord {
    public func encode(to writer: inout RecordWriter) {
        writer.string(tenantID)
        writer.string(id)
        writer.string(userID)
        writer.bytes(credentialID)
        writer.bytes(publicKey)
        writer.uint32(signCount)
        writer.bytes(aaguid)
        writer.bool(backupEligible)
        writer.bool(backupState)
        writer.strings(transports)
        writer.string(name)
        writer.string(attestationFormat.rawValue)
        writer.date(createdAt)
        writer.optionalDate(lastUsedAt)
    }

    public init(from reader: inout RecordReader, version: Int) throws(RecordReader.Failure) {
        self.init(
            tenantID: try reader.string("tenantID"), id: try reader.string("id"), userID: try reader.string("userID"),
            credentialID: try reader.bytes("credentialID"), publicKey: try reader.bytes("publicKey"),
            signCount: try reader.uint32("signCount"), aaguid: try reader.bytes("aaguid"),
            backupEligible: try reader.bool("backupEligible"), backupState: try reader.bool("backupState"),
            transports: try reader.strings("transports"), name: try reader.string("name"),
            attestationFormat: try reader.value(AttestationFormat.self, "attestationFormat"),
            createdAt: try reader.date("createdAt"), lastUsedAt: try reader.optionalDate("lastUsedAt"))
        self.version = version
    }
}

extension RefreshTokenRecord: BinaryCodedRecord {
    public func encode(to writer: inout RecordWriter) {
        writer.string(tenantID)
        writer.string(id)
        writer.bytes(tokenHash)
        writer.string(familyID)
        writer.string(clientID)
        writer.string(userID)
        writer.string(scope)
        writer.optionalString(audience)
        writer.strings(amr)
        writer.date(authTime)
        writer.optionalString(passkeyID)
        writer.date(createdAt)
        writer.date(expiresAt)
        writer.date(idleExpiresAt)
        writer.optionalDate(usedAt)
        writer.optionalDate(revokedAt)
        writer.optionalString(dpopJKT)
    }

    public init(from reader: inout RecordReader, version: Int) throws(RecordReader.Failure) {
        self.init(
            tenantID: try reader.string("tenantID"), id: try reader.string("id"),
            tokenHash: try reader.bytes("tokenHash"),
            familyID: try reader.string("familyID"), clientID: try reader.string("clientID"),
            userID: try reader.string("userID"), scope: try reader.string("scope"),
            audience: try reader.optionalString("audience"), amr: try reader.strings("amr"),
            authTime: try reader.date("authTime"), passkeyID: try reader.optionalString("passkeyID"),
            createdAt: try reader.date("createdAt"), expiresAt: try reader.date("expiresAt"),
            idleExpiresAt: try reader.date("idleExpiresAt"), usedAt: try reader.optionalDate("usedAt"),
            revokedAt: try reader.optionalDate("revokedAt"), dpopJKT: try reader.optionalString("dpopJKT"))
        self.version = version
    }
}

extension AuthEventRecord: BinaryCodedRecord {
    public func encode(to writer: inout RecordWriter) {
        writer.string(tenantID)
        writer.string(id)
        writer.date(at)
        writer.string(type.rawValue)
        writer.string(method.rawValue)
        writer.string(outcome.rawValue)
        writer.optionalString(clientID)
        writer.optionalString(userID)
        writer.optionalString(platform?.rawValue)
        writer.optionalString(connectionID)
        writer.optionalString(passkeyKind?.rawValue)
        writer.optionalBytes(aaguid)
        writer.optionalString(clientPlatform?.rawValue)
        writer.optionalBool(conditional)
    }

    public init(from reader: inout RecordReader, version: Int) throws(RecordReader.Failure) {
        let tenantID = try reader.string("tenantID")
        let id = try reader.string("id")
        let at = try reader.date("at")
        let type = try reader.value(AuthEventKind.self, "type")
        let method = try reader.value(AuthEventMethod.self, "method")
        let outcome = try reader.value(AuthEventOutcome.self, "outcome")
        let clientID = try reader.optionalString("clientID")
        let userID = try reader.optionalString("userID")
        let platform = try reader.optionalValue(AuthPlatform.self, "platform")
        self.init(
            tenantID: tenantID, id: id, at: at, type: type, method: method, outcome: outcome, clientID: clientID,
            userID: userID, platform: platform)
        // Version 2 added what the adoption statistics count by.
        if version >= 2 {
            connectionID = try reader.optionalString("connectionID")
            passkeyKind = try reader.optionalValue(PasskeyKind.self, "passkeyKind")
            aaguid = try reader.optionalBytes("aaguid")
            clientPlatform = try reader.optionalValue(ClientPlatform.self, "clientPlatform")
            conditional = try reader.optionalBool("conditional")
        }
        self.version = Self.currentVersion
    }
}

extension OutboxMessageRecord: BinaryCodedRecord {
    public func encode(to writer: inout RecordWriter) {
        writer.string(tenantID)
        writer.string(id)
        writer.date(createdAt)
        writer.string(channel.rawValue)
        writer.string(template.rawValue)
        writer.string(recipient)
        writer.bytes(sealedText)
    }

    public init(from reader: inout RecordReader, version: Int) throws(RecordReader.Failure) {
        self.init(
            tenantID: try reader.string("tenantID"), id: try reader.string("id"),
            createdAt: try reader.date("createdAt"),
            channel: try reader.value(MessageChannel.self, "channel"),
            template: try reader.value(MessageTemplate.self, "template"), recipient: try reader.string("recipient"),
            sealedText: try reader.bytes("sealedText"))
        self.version = version
    }
}
