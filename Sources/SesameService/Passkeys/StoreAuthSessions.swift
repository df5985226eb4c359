import Foundation
import SesameCrypto
import SesameStore
import WebAuthn

/// Auth sessions kept in the store, so that a challenge issued by one process is redeemed at
/// another (several `sesame serve` processes on one PostgreSQL). Consumption is one atomic
/// delete, so of two processes redeeming the same handle exactly one gets it; the per-address cap
/// is checked in the same write that inserts. Expired sessions are deleted by `sweep(now:)`.
///
/// Unlike `InMemoryAuthSessions` there is no total cap: the store is not the process's memory, and
/// what it holds is bounded by the per-address cap, the public rate limits and the 60 s lifetime.
public final class StoreAuthSessions: AuthSessionStore {
    /// The most pending sessions one requester may hold.
    public let maxPerRequester: Int
    /// Expired sessions deleted per sweep.
    public static let sweepBatch = 10_000
    private let store: any SesameStore
    private let random: any RandomSource

    public init(store: any SesameStore, maxPerRequester: Int = 200, random: any RandomSource) {
        self.store = store
        self.maxPerRequester = max(1, maxPerRequester)
        self.random = random
    }

    public func insert(_ session: AuthSession, now: Date) throws(ServiceError) -> String {
        let handle = Base64URL.encode(try random.serviceBytes(32))
        let record = AuthSessionRecord(
            handleHash: Digest.sha256(Array(handle.utf8)), tenantID: session.tenantID,
            requester: session.requester, expiresAt: session.expiresAt, payload: AuthSessionCodec.encode(session))
        let limit = maxPerRequester
        let outcome: AuthSessionInsertion
        do {
            outcome = try store.write(.relaxed) {
                try $0.authSessions.insert(record, maxPerRequester: limit, now: now)
            }
        } catch {
            throw StoreAccess.map(error)
        }
        guard case .inserted = outcome else {
            throw .tooManyRequests(
                "too many passkey ceremonies are pending from this address; finish or abandon one first",
                retryAfterSeconds: max(1, Int(session.expiresAt.timeIntervalSince(now).rounded(.up))))
        }
        return handle
    }

    public func consume(_ handle: String) -> AuthSession? {
        guard handle.utf8.count <= 256 else { return nil }
        let hash = Digest.sha256(Array(handle.utf8))
        guard let record = try? store.write(.relaxed, { try $0.authSessions.consume(handleHash: hash) }) else {
            return nil
        }
        return try? AuthSessionCodec.decode(record.payload)
    }

    public func peek(_ handle: String) -> AuthSession? {
        guard handle.utf8.count <= 256 else { return nil }
        let hash = Digest.sha256(Array(handle.utf8))
        guard let record = try? store.read({ try $0.authSessions.get(handleHash: hash) }) else { return nil }
        return try? AuthSessionCodec.decode(record.payload)
    }

    @discardableResult public func sweep(now: Date) -> Int {
        (try? store.write(.relaxed) { try $0.authSessions.deleteExpired(now: now, limit: Self.sweepBatch) }) ?? 0
    }
}

/// A pending ceremony as bytes, written and read by hand (no Foundation JSON on the login path).
///
/// Layout, version 1: the format byte 1; the tenant, client, connection and requester ids; the
/// expiry (Double seconds since 2001, big-endian bits); the token defaults (a presence byte, then
/// optional scope and audience); the ceremony byte (1 signup, 2 login, 3 enroll, 4 enroll in place of
/// the password) and its state:
/// challenge, user handle (not for login), user verification, the offered algorithms (registration)
/// or allowed credential ids (login), then the packed signup profile or the enrolling user's id.
/// Strings and byte strings carry a 32-bit big-endian length.
enum AuthSessionCodec {
    /// 2: a registration ends with its mediation (0 modal, 1 conditional). Format 1 is still read
    /// (a ceremony begun before an upgrade finishes after it).
    static let format: UInt8 = 2

    static func encode(_ session: AuthSession) -> [UInt8] {
        var out = Writer()
        out.byte(format)
        out.string(session.tenantID)
        out.string(session.clientID)
        out.string(session.connectionID)
        out.string(session.requester)
        out.uint64(session.expiresAt.timeIntervalSinceReferenceDate.bitPattern)
        if let defaults = session.tokenDefaults {
            out.byte(1)
            out.optionalString(defaults.scope)
            out.optionalString(defaults.audience)
        } else {
            out.byte(0)
        }
        switch session.ceremony {
        case .signup(let state, let profile):
            out.byte(1)
            out.registration(state)
            out.field(profile.bytes)
        case .login(let state):
            out.byte(2)
            out.field(state.challenge)
            out.byte(verificationCode(state.userVerification))
            out.uint32(UInt32(state.allowCredentials.count))
            for id in state.allowCredentials { out.field(id) }
        case .enroll(let state, let userID, let purpose):
            out.byte(purpose == .addPasskey ? 3 : 4)
            out.registration(state)
            out.string(userID)
        }
        return out.buffer
    }

    static func decode(_ bytes: [UInt8]) throws -> AuthSession {
        var input = Reader(buffer: bytes)
        let version = try input.byte()
        guard version == 1 || version == format else {
            throw StoreError.corrupt("an auth session has an unknown format")
        }
        input.format = version
        let tenantID = try input.string()
        let clientID = try input.string()
        let connectionID = try input.string()
        let requester = try input.string()
        let expiresAt = Date(timeIntervalSinceReferenceDate: Double(bitPattern: try input.uint64()))
        var tokenDefaults: TokenDefaults?
        if try input.byte() == 1 {
            tokenDefaults = try TokenDefaults.make(
                scope: try input.optionalString(), audience: try input.optionalString())
        }
        let ceremony: AuthSession.Ceremony
        switch try input.byte() {
        case 1:
            ceremony = .signup(state: try input.registration(), profile: PendingSignupProfile(bytes: try input.field()))
        case 2:
            let challenge = try input.field()
            let verification = try verification(try input.byte())
            let count = Int(try input.uint32())
            guard count <= 1_000 else { throw StoreError.corrupt("an auth session lists too many credentials") }
            var allowed: [[UInt8]] = []
            for _ in 0..<count { allowed.append(try input.field()) }
            ceremony = .login(
                state: AuthenticationState(
                    challenge: challenge, userVerification: verification, allowCredentials: allowed))
        case 3: ceremony = .enroll(state: try input.registration(), userID: try input.string(), purpose: .addPasskey)
        case 4:
            ceremony = .enroll(state: try input.registration(), userID: try input.string(), purpose: .replacePassword)
        default: throw StoreError.corrupt("an auth session has an unknown ceremony")
        }
        guard input.isAtEnd else { throw StoreError.corrupt("an auth session has trailing bytes") }
        return AuthSession(
            tenantID: tenantID, clientID: clientID, connectionID: connectionID, ceremony: ceremony,
            expiresAt: expiresAt,
            requester: requester, tokenDefaults: tokenDefaults)
    }

    static func verificationCode(_ value: UserVerificationRequirement) -> UInt8 {
        switch value {
        case .required: return 1
        case .preferred: return 2
        case .discouraged: return 3
        }
    }

    static func verification(_ code: UInt8) throws -> UserVerificationRequirement {
        switch code {
        case 1: return .required
        case 2: return .preferred
        case 3: return .discouraged
        default: throw StoreError.corrupt("an auth session has an unknown user verification")
        }
    }

    struct Writer {
        var buffer: [UInt8] = []
        mutating func byte(_ value: UInt8) { buffer.append(value) }
        mutating func uint32(_ value: UInt32) {
            for shift in stride(from: 24, through: 0, by: -8) {
                buffer.append(UInt8(truncatingIfNeeded: value >> shift))
            }
        }
        mutating func uint64(_ value: UInt64) {
            for shift in stride(from: 56, through: 0, by: -8) {
                buffer.append(UInt8(truncatingIfNeeded: value >> shift))
            }
        }
        mutating func field(_ value: [UInt8]) {
            uint32(UInt32(value.count))
            buffer.append(contentsOf: value)
        }
        mutating func string(_ value: String) { field(Array(value.utf8)) }
        mutating func optionalString(_ value: String?) {
            if let value {
                byte(1)
                string(value)
            } else {
                byte(0)
            }
        }
        mutating func registration(_ state: RegistrationState) {
            field(state.challenge)
            field(state.userHandle)
            byte(AuthSessionCodec.verificationCode(state.userVerification))
            uint32(UInt32(state.algorithms.count))
            for algorithm in state.algorithms { uint32(UInt32(bitPattern: Int32(algorithm.rawValue))) }
            byte(state.mediation == .conditional ? 1 : 0)
        }
    }

    struct Reader {
        let buffer: [UInt8]
        var index = 0
        /// The format being read (registrations carry their mediation from format 2).
        var format = AuthSessionCodec.format
        var isAtEnd: Bool { index == buffer.count }

        mutating func byte() throws -> UInt8 {
            guard index < buffer.count else { throw StoreError.corrupt("an auth session is cut short") }
            defer { index += 1 }
            return buffer[index]
        }
        mutating func uint32() throws -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 { value = value << 8 | UInt32(try byte()) }
            return value
        }
        mutating func uint64() throws -> UInt64 {
            var value: UInt64 = 0
            for _ in 0..<8 { value = value << 8 | UInt64(try byte()) }
            return value
        }
        mutating func field() throws -> [UInt8] {
            let count = Int(try uint32())
            guard count <= buffer.count - index else { throw StoreError.corrupt("an auth session is cut short") }
            defer { index += count }
            return Array(buffer[index..<index + count])
        }
        mutating func string() throws -> String {
            guard let text = String(validating: try field(), as: UTF8.self) else {
                throw StoreError.corrupt("an auth session holds text that is not UTF-8")
            }
            return text
        }
        mutating func optionalString() throws -> String? {
            try byte() == 1 ? try string() : nil
        }
        mutating func registration() throws -> RegistrationState {
            let challenge = try field()
            let userHandle = try field()
            let verification = try AuthSessionCodec.verification(try byte())
            let count = Int(try uint32())
            guard count <= 32 else { throw StoreError.corrupt("an auth session offers too many algorithms") }
            var algorithms: [COSEAlgorithm] = []
            for _ in 0..<count {
                guard let algorithm = COSEAlgorithm(rawValue: Int(Int32(bitPattern: try uint32()))) else {
                    throw StoreError.corrupt("an auth session offers an unknown algorithm")
                }
                algorithms.append(algorithm)
            }
            var mediation: RegistrationMediation?
            if format >= 2 {
                switch try byte() {
                case 0: mediation = nil
                case 1: mediation = .conditional
                default: throw StoreError.corrupt("an auth session has an unknown mediation")
                }
            }
            return RegistrationState(
                challenge: challenge, userHandle: userHandle, userVerification: verification, algorithms: algorithms,
                mediation: mediation)
        }
    }
}
