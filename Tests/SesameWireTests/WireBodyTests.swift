import Foundation
import SesameWire
import Testing

@Suite("Request bodies written by declaration")
struct WireBodyTests {
    @Test func absentValuesAreLeftOutAndKeysSorted() {
        let audience: String? = nil
        let body: WireBody = [
            TokenFields.scope: "openid", ClientFields.clientID: .string("app"), TokenFields.audience: .text(audience),
        ]
        #expect(body.json == #"{"client_id":"app","scope":"openid"}"#)
        #expect(body.names == ["client_id", "scope"])
    }

    @Test func stringsAreEscapedAndTheTextIsJSON() throws {
        let text = "a\"b\\c\nd\u{01}é"
        let body: WireBody = [
            SignupFields.userMetadata: .strings(["k": text]),
            SignupFields.userProfile: .object([ProfileAttribute.name.field: .string(text)]),
        ]
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(body.json.utf8)) as? [String: [String: String]])
        #expect(object["user_metadata"]?["k"] == text)
        #expect(object["user_profile"]?["name"] == text)
        #expect(body.json.contains(#"\u0001"#))
    }

    @Test func aMemberSetAgainIsReplacedAndNilRemovesIt() {
        var body: WireBody = [TokenFields.otp: "1"]
        body[TokenFields.otp] = "2"
        #expect(body.json == #"{"otp":"2"}"#)
        body[TokenFields.otp] = nil
        #expect(body.isEmpty)
        #expect(body.json == "{}")
    }

    @Test func aVerbatimDocumentIsEmbeddedAsItIs() {
        let body: WireBody = [TokenFields.authnResponse: .verbatim(#"{"id":"x","type":"public-key"}"#)]
        #expect(body.json == #"{"authn_response":{"id":"x","type":"public-key"}}"#)
    }

    /// The grants' and the SDK's members come from these declarations; a limit the server
    /// documents is the declaration's.
    @Test func aNarrowedMemberKeepsItsNameAndFlags() {
        let field = TokenFields.grantType.nullable.requiredByService.typed(.oneOf(["password"]))
        #expect(field.name == "grant_type")
        #expect(field.isNullable && field.isRequiredByService && !field.isRequired)
        #expect(field.type == .oneOf(["password"]))
    }

    /// Every profile attribute is in the signup's profile, after the three identifiers.
    @Test func theSignupProfileListsEveryAttribute() {
        let names = SignupFields.profile(nullable: true).map(\.name)
        #expect(names == ["email", "phone_number", "username"] + ProfileAttribute.allCases.map(\.rawValue))
        let nullable = SignupFields.profile(nullable: true).filter(\.isNullable)
        let strict = SignupFields.profile(nullable: false).filter { !$0.isNullable }
        #expect(nullable.count == names.count)
        #expect(strict.count == names.count)
    }

    /// The document's pattern for display text refuses what the server's text rules refuse, and
    /// takes the rest (the joiners emoji need among them).
    @Test func theSafeTextPatternMatchesTheUnsafeList() throws {
        let pattern = try NSRegularExpression(pattern: UnsafeText.pattern)
        func matches(_ text: String) -> Bool {
            pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        #expect(matches("Zoë 山田 👩\u{200D}💻"))
        for unsafe in ["a\u{0}b", "a\nb", "a\u{7F}", "x\u{202E}y", "x\u{200B}y", "\u{FEFF}", "a\u{2028}b", ""] {
            #expect(!matches(unsafe), "\(unsafe.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        for scalar in [0x1F, 0x85, 0x061C, 0x2066, 0xFFFB] {
            #expect(UnsafeText.contains(Unicode.Scalar(UInt32(scalar))!))
        }
        #expect(!UnsafeText.contains("a") && !UnsafeText.contains("\u{200D}"))
    }
}
