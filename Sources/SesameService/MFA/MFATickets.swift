import Foundation
import SesameCrypto
import SesameStore
import SesameWire

/// The keys of second factors, derived from the master key: one seals TOTP secrets, one makes
/// the MAC under which SMS codes are kept (a 6-digit code is too guessable to keep as a bare hash).
public struct MFAKeys: Sendable {
    let secrets: [UInt8]
    let codes: [UInt8]

    public init(masterKey: MasterKey) {
        secrets = masterKey.derivedKey(purpose: "mfa-secrets")
        codes = masterKey.derivedKey(purpose: "mfa-codes")
    }

    static func associatedData(tenantID: String, userID: String, enrollmentID: String) -> [UInt8] {
        Array("\(tenantID)\u{0}\(userID)\u{0}\(enrollmentID)".utf8)
    }

    func seal(_ secret: [UInt8], tenantID: String, userID: String, enrollmentID: String, random: any RandomSource)
        throws(ServiceError) -> [UInt8]
    {
        do {
            return try AES256GCM.seal(
                secret, key: secrets,
                associatedData: Self.associatedData(tenantID: tenantID, userID: userID, enrollmentID: enrollmentID),
                random: random)
        } catch {
            throw .unavailable("the second factor could not be sealed")
        }
    }

    func open(_ enrollment: MFAEnrollment, tenantID: String, userID: String) throws(ServiceError) -> [UInt8] {
        do {
            return try AES256GCM.open(
                enrollment.sealedSecret, key: secrets,
                associatedData: Self.associatedData(tenantID: tenantID, userID: userID, enrollmentID: enrollment.id))
        } catch {
            throw .unavailable("a stored second factor could not be opened")
        }
    }

    func mac(code: String, challenge: [UInt8]) -> [UInt8] {
        HMAC.authenticationCode(for: challenge + Array(code.utf8), key: codes)
    }
}

/// What an `mfa_token` stands for while the second factor is asked: the login so far. Kept in
/// the auth-session table under a hash of the token in its own domain, for 10 minutes.
struct MFATicket: Sendable, Equatable {
    static let lifetime: TimeInterval = 600
    /// Outstanding tokens per user.
    static let maxPerUser = 20
    static let tag = TicketKind.mfaToken.rawValue

    var userID: String
    var clientID: String
    var scope: String
    var audience: String
    var amr: [String]
    var authTime: Date
    /// The password's status at the first step (nil when there was no password).
    var passwordStatus: PasswordStatus?
    var recommendedUpgrades: [RecommendedUpgrade] = []

    static func hash(_ token: String) -> [UInt8] { Digest.sha256(Array("sesame-mfa-token\u{0}\(token)".utf8)) }

    var payload: [UInt8] {
        var writer = RecordWriter()
        writer.byte(Self.tag)
        writer.string(userID)
        writer.string(clientID)
        writer.string(scope)
        writer.string(audience)
        writer.strings(amr)
        writer.date(authTime)
        writer.string(passwordStatus?.rawValue ?? "")
        writer.strings(recommendedUpgrades.map(\.rawValue))
        return writer.bytes
    }

    init(userID: String, clientID: String, scope: String, audience: String, amr: [String], authTime: Date) {
        self.userID = userID
        self.clientID = clientID
        self.scope = scope
        self.audience = audience
        self.amr = amr
        self.authTime = authTime
    }

    /// nil for any payload that is not an mfa token's.
    init?(payload: [UInt8]) {
        var reader = RecordReader(payload)
        do throws(RecordReader.Failure) {
            guard try reader.byte("tag") == Self.tag else { return nil }
            self.init(
                userID: try reader.string("userID"), clientID: try reader.string("clientID"),
                scope: try reader.string("scope"), audience: try reader.string("audience"),
                amr: try reader.strings("amr"), authTime: try reader.date("authTime"))
            let status = try reader.string("passwordStatus")
            if !status.isEmpty {
                guard let known = PasswordStatus(rawValue: status) else { return nil }
                passwordStatus = known
            }
            for name in try reader.strings("recommendedUpgrades") {
                guard let upgrade = RecommendedUpgrade(rawValue: name) else { return nil }
                recommendedUpgrades.append(upgrade)
            }
            guard reader.isAtEnd else { return nil }
        } catch {
            return nil
        }
    }
}

/// An SMS code sent and not yet used (`oob_code` is its handle): 5 minutes, 5 tries.
struct OOBChallenge: Sendable, Equatable {
    static let lifetime: TimeInterval = 300
    static let maxTries = 5
    static let tag = TicketKind.oobChallenge.rawValue

    var userID: String
    var enrollmentID: String
    /// The mfa token it was sent for (empty: an enrollment through an MFA access token).
    var mfaTokenHash: [UInt8]
    /// A random value the code's MAC is bound to.
    var salt: [UInt8]
    var codeMAC: [UInt8]

    static func hash(_ handle: String) -> [UInt8] { Digest.sha256(Array("sesame-oob-code\u{0}\(handle)".utf8)) }

    var payload: [UInt8] {
        var writer = RecordWriter()
        writer.byte(Self.tag)
        writer.string(userID)
        writer.string(enrollmentID)
        writer.bytes(mfaTokenHash)
        writer.bytes(salt)
        writer.bytes(codeMAC)
        return writer.bytes
    }

    init(userID: String, enrollmentID: String, mfaTokenHash: [UInt8], salt: [UInt8], codeMAC: [UInt8]) {
        self.userID = userID
        self.enrollmentID = enrollmentID
        self.mfaTokenHash = mfaTokenHash
        self.salt = salt
        self.codeMAC = codeMAC
    }

    init?(payload: [UInt8]) {
        var reader = RecordReader(payload)
        do throws(RecordReader.Failure) {
            guard try reader.byte("tag") == Self.tag else { return nil }
            self.init(
                userID: try reader.string("userID"), enrollmentID: try reader.string("enrollmentID"),
                mfaTokenHash: try reader.bytes("mfaTokenHash"), salt: try reader.bytes("salt"),
                codeMAC: try reader.bytes("codeMAC"))
            guard reader.isAtEnd else { return nil }
        } catch {
            return nil
        }
    }
}
