import SesameCrypto
import Testing

@testable import WebAuthn

/// §8.4 step 5 on the key description's authorization lists, starting from a valid pair
/// (origin GENERATED and purpose SIGN in teeEnforced) and breaking one thing at a time.
@Suite("android-key authorization lists")
struct AndroidKeyAuthorizationListTests {
    static let tee = AndroidAuthorizationList(purpose: [2], origin: 0, allApplications: false)
    static let empty = AndroidAuthorizationList(purpose: nil, origin: nil, allApplications: false)

    static func code(tee: AndroidAuthorizationList, software: AndroidAuthorizationList) -> WebAuthnError.Code? {
        FormatTestSupport.error {
            try AndroidKeyAttestation.checkAuthorizationLists(tee: tee, software: software)
        }?.code
    }

    @Test func teeEnforcedOriginAndPurpose() {
        #expect(Self.code(tee: Self.tee, software: Self.empty) == nil)
    }

    @Test func softwareEnforcedCountsWithoutATEERequirement() {
        // The policy has no TEE-only switch, so the union of both lists is used.
        #expect(Self.code(tee: Self.empty, software: Self.tee) == nil)
    }

    @Test func purposeMayListMoreThanSign() {
        let tee = AndroidAuthorizationList(purpose: [3, 2], origin: 0, allApplications: false)
        #expect(Self.code(tee: tee, software: Self.empty) == nil)
    }

    @Test func allApplicationsInTEEList() {
        let tee = AndroidAuthorizationList(purpose: [2], origin: 0, allApplications: true)
        #expect(Self.code(tee: tee, software: Self.empty) == .androidKeyAuthorizationList)
    }

    @Test func allApplicationsInSoftwareList() {
        let software = AndroidAuthorizationList(purpose: nil, origin: nil, allApplications: true)
        #expect(Self.code(tee: Self.tee, software: software) == .androidKeyAuthorizationList)
    }

    @Test func importedKey() {
        let tee = AndroidAuthorizationList(purpose: [2], origin: 2, allApplications: false)  // KM_ORIGIN_IMPORTED
        #expect(Self.code(tee: tee, software: Self.empty) == .androidKeyAuthorizationList)
    }

    @Test func conflictingOrigins() {
        let software = AndroidAuthorizationList(purpose: nil, origin: 2, allApplications: false)
        #expect(Self.code(tee: Self.tee, software: software) == .androidKeyAuthorizationList)
    }

    @Test func noOrigin() {
        let tee = AndroidAuthorizationList(purpose: [2], origin: nil, allApplications: false)
        #expect(Self.code(tee: tee, software: Self.empty) == .androidKeyAuthorizationList)
    }

    @Test func purposeWithoutSign() {
        let tee = AndroidAuthorizationList(purpose: [3], origin: 0, allApplications: false)  // KM_PURPOSE_VERIFY
        #expect(Self.code(tee: tee, software: Self.empty) == .androidKeyAuthorizationList)
    }

    @Test func bothListsEmpty() {
        #expect(Self.code(tee: Self.empty, software: Self.empty) == .androidKeyAuthorizationList)
    }
}
