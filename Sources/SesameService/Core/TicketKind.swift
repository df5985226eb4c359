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
    /// A passkey the tenant deleted, remembered for the Signal API (`DeletedPasskeys`).
    case deletedPasskey = 0x58
}
