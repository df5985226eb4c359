import SesameStore
import Testing

@testable import SesameService

/// A pending signup keeps the attributes added after its layout began after the metadata, and a
/// signup packed before they existed still reads.
@Suite("Pending signups across added profile attributes")
struct PendingSignupLayoutTests {
    @Test func anAddedAttributeRoundTripsAfterTheMetadata() throws {
        let profile = UserProfile(email: "a@b.co", givenName: "Ada", middleName: "Augusta")
        let packed = try PendingSignupProfile(profile: profile, metadata: ["k": "v"])
        let (read, metadata) = try packed.unpack()
        #expect(read == profile)
        #expect(metadata == ["k": "v"])
        // The first eight fields and the metadata are as before; the middle name follows them.
        let without = try PendingSignupProfile(
            profile: UserProfile(email: "a@b.co", givenName: "Ada"), metadata: ["k": "v"])
        #expect(packed.byteCount == without.byteCount + 1 + 2 + "Augusta".utf8.count)
    }

    @Test func aSignupPackedBeforeTheAttributeReadsWithoutIt() throws {
        // email "a@b.co", seven absent fields, no metadata: the layout of the first build.
        let before: [UInt8] = [1, 6, 0] + Array("a@b.co".utf8) + [0, 0, 0, 0, 0, 0, 0] + [0]
        let (read, metadata) = try PendingSignupProfile(bytes: before).unpack()
        #expect(read == UserProfile(email: "a@b.co"))
        #expect(read.middleName == nil && metadata.isEmpty)
    }
}
