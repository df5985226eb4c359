import Testing

@testable import SesameService

/// The first bytes of the auth-session table's payloads are stored: each kind keeps its byte.
@Suite("Ticket kinds")
struct TicketKindTests {
    @Test func eachKindKeepsItsStoredByte() {
        let stored: [TicketKind: UInt8] = [
            .adminSetupLink: 0x41, .adminSetupPointer: 0x50, .authorizationCode: 0x43, .spentAuthorizationCode: 0x63,
            .deviceKeyChallenge: 0x44, .passkeyEnrollment: 0x45, .mfaToken: 0x4D, .oobChallenge: 0x4F,
            .accountRecovery: 0x52, .authorizationTransaction: 0x54, .accountUpgrade: 0x55, .emailVerification: 0x56,
            .deletedPasskey: 0x58, .appleWebUpgrade: 0x57, .passwordReset: 0x73,
        ]
        #expect(Set(TicketKind.allCases) == Set(stored.keys), "a new kind gets a line here")
        for kind in TicketKind.allCases { #expect(kind.rawValue == stored[kind], "\(kind)") }
    }

    @Test func theRecordsUseTheirKinds() {
        #expect(AdminAccess.tag != AdminAccess.currentTag)
        #expect(DeletedPasskeys.tag != PendingDeviceKeyChallenge.kind.rawValue, "they shared 0x44 once")
        #expect(AdminAccess.currentTag != AuthorizationCode.kind.rawValue, "they shared 0x43 once")
        #expect(Array(ResetTicket.tag.utf8).first == TicketKind.passwordReset.rawValue)
    }
}
