import SesameStore
import SesameWire

/// The first byte of every payload kept in the auth-session table: which kind of record it is, so
/// that a row of one kind never parses as another. One enum, so no two kinds can share a byte (Swift
/// refuses a repeated raw value). The bytes are stored: never change one; a new kind takes a new byte.
enum TicketKind: UInt8, CaseIterable {
    /// An admin setup link (`AdminAccess`).
    case adminSetupLink = 0x41
    /// The pointer to a tenant's newest admin setup link, so a new one revokes the one before.
    case adminSetupPointer = 0x50
    /// An authorization code (`AuthorizationCode`).
    case authorizationCode = 0x43
    /// A spent authorization code, kept to revoke what it issued if it comes again.
    case spentAuthorizationCode = 0x63
    /// A device-key challenge between its issue and its redemption (`PendingDeviceKeyChallenge`).
    case deviceKeyChallenge = 0x44
    /// A passkey-enrollment ticket's state (`EnrollmentState`).
    case passkeyEnrollment = 0x45
    /// An `mfa_token` (`MFATicket`).
    case mfaToken = 0x4D
    /// An SMS code's challenge (`OOBChallenge`).
    case oobChallenge = 0x4F
    /// An account recovery by emailed code (`RecoveryChallenge`).
    case accountRecovery = 0x52
    /// A pending `/authorize` request (`AuthorizationTransaction`).
    case authorizationTransaction = 0x54
    /// An account upgrade's state (`UpgradeState`).
    case accountUpgrade = 0x55
    /// An email-verification link (`VerificationTicket`).
    case emailVerification = 0x56
    /// The web flow of an upgrade to Sign in with Apple, between the redirect and Apple's form post
    /// (`AppleWebUpgradeState`).
    case appleWebUpgrade = 0x57
    /// A passkey the tenant deleted, remembered for the Signal API (`DeletedPasskeys`).
    case deletedPasskey = 0x58
    /// A password-reset ticket (`ResetTicket`). Its payload is text that begins
    /// `sesame-reset-ticket-1`, so this byte is that text's first.
    case passwordReset = 0x73
}

/// A record kept in the auth-session table: its kind's byte, then its fields as its table
/// (`recordFields`) writes them. Tickets live minutes to days and carry no version: a field is
/// added at the end, read as absent from a shorter payload by its own field (`AuthorizationTransaction`).
protocol TicketPayload: RecordTabled {
    static var kind: TicketKind { get }
    /// A check beyond the fields' own (a length), made after reading; a payload that fails it is refused.
    var isWellFormed: Bool { get }
}

extension TicketPayload {
    var isWellFormed: Bool { true }

    var payload: [UInt8] {
        var writer = RecordWriter()
        writer.byte(Self.kind.rawValue)
        write(to: &writer)
        return writer.bytes
    }

    /// nil for any payload that is not one of this kind, or does not read to its end.
    init?(payload: [UInt8]) {
        var reader = RecordReader(payload)
        do throws(RecordReader.Failure) {
            guard try reader.byte("kind") == Self.kind.rawValue else { return nil }
            let value = try Self.read(from: &reader, field: "")
            guard reader.isAtEnd, value.isWellFormed else { return nil }
            self = value
        } catch {
            return nil
        }
    }
}

// The wire's vocabularies that tickets hold, stored by their raw values as the store's are.
extension PasswordStatus: RecordVocabulary {}
extension RecommendedUpgrade: RecordVocabulary {}
extension PasskeyEnrollmentReason: RecordVocabulary {}
extension DeviceKeySignedBytes.Purpose: RecordVocabulary {}
