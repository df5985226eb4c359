import Testing
import WebAuthn

@Suite("CollectedClientData")
struct CollectedClientDataTests {
    static let valid = #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://example.org"}"#

    static func parse(_ json: String) throws(WebAuthnError) -> CollectedClientData {
        try CollectedClientData(json: Array(json.utf8))
    }

    static func error(_ json: String) -> WebAuthnError? {
        ParsingFixtures.error { try parse(json) }
    }

    /// The valid fixture with one member replaced (or removed when `value` is nil).
    static func with(_ member: String, _ value: String?) -> String {
        var members = [
            ("type", #""webauthn.get""#), ("challenge", #""AAEC""#), ("origin", #""https://example.org""#),
        ]
        if let index = members.firstIndex(where: { $0.0 == member }) {
            if let value { members[index].1 = value } else { members.remove(at: index) }
        } else if let value {
            members.append((member, value))
        }
        return "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    @Test func parsesTheRequiredMembers() throws {
        let data = try Self.parse(Self.valid)
        #expect(data.type == "webauthn.get")
        #expect(data.challenge == [0, 1, 2])
        #expect(data.origin == "https://example.org")
        #expect(data.crossOrigin == nil)
        #expect(data.topOrigin == nil)
        #expect(data.raw == Array(Self.valid.utf8))
    }

    @Test func parsesOptionalMembersAndIgnoresUnknownOnes() throws {
        let json = Self.with("crossOrigin", "true")
            .replacingOccurrences(
                of: "}",
                with: #","topOrigin":"https://top.example","extraData":{"n":[1,2.5,null]},"androidPackageName":"x"}"#)
        let data = try Self.parse(json)
        #expect(data.crossOrigin == true)
        #expect(data.topOrigin == "https://top.example")
        #expect(data.raw == Array(json.utf8))
        #expect(try Self.parse(Self.with("crossOrigin", "false")).crossOrigin == false)
    }

    @Test(arguments: ["type", "challenge", "origin"])
    func rejectsAMissingMember(_ member: String) {
        #expect(Self.error(Self.with(member, nil)) == WebAuthnError(.malformed, "clientDataJSON: \(member) is missing"))
    }

    @Test(arguments: [
        ("type", "1", "clientDataJSON: type is not a string"),
        ("challenge", "null", "clientDataJSON: challenge is not a string"),
        ("origin", "[]", "clientDataJSON: origin is not a string"),
        ("crossOrigin", #""true""#, "clientDataJSON: crossOrigin is not a boolean"),
        ("crossOrigin", "1", "clientDataJSON: crossOrigin is not a boolean"),
        ("crossOrigin", "null", "clientDataJSON: crossOrigin is not a boolean"),
        ("topOrigin", "5", "clientDataJSON: topOrigin is not a string"),
        (
            "challenge", #""AA+C""#,
            "clientDataJSON: challenge is not base64url (base64url: '+' at offset 2 is not in the url-safe alphabet)"
        ),
        (
            "challenge", #""A""#,
            "clientDataJSON: challenge is not base64url (base64url: impossible length (1 characters leave 6 stray bits))"
        ),
    ])
    func rejectsAWrongType(_ member: String, _ value: String, _ message: String) {
        #expect(Self.error(Self.with(member, value)) == WebAuthnError(.malformed, message))
    }

    @Test func rejectsSomethingThatIsNotAJSONObject() {
        #expect(
            Self.error("")
                == WebAuthnError(.malformed, "clientDataJSON: not valid JSON (JSON: unexpected end of input at byte 0)")
        )
        #expect(
            Self.error("{")
                == WebAuthnError(.malformed, "clientDataJSON: not valid JSON (JSON: expected a member name at byte 1)"))
        #expect(
            Self.error(String(Self.valid.dropLast()))?.message.hasPrefix("clientDataJSON: not valid JSON (") == true)
        #expect(Self.error("[]") == WebAuthnError(.malformed, "clientDataJSON: not a JSON object"))
        #expect(Self.error(#""webauthn.get""#) == WebAuthnError(.malformed, "clientDataJSON: not a JSON object"))
        #expect(
            ParsingFixtures.error { try CollectedClientData(json: [0xFF, 0xFE]) }
                == WebAuthnError(.malformed, "clientDataJSON: not valid JSON (JSON: unexpected character at byte 0)"))
    }

    @Test func parsesEveryConformanceVectorsClientData() throws {
        var count = 0
        for kind in ["registration", "authentication"] {
            for vector in ParsingFixtures.vectors(kind) {
                let data = try CollectedClientData(json: ParsingFixtures.field(vector, "clientDataJSON"))
                #expect(data.type == (kind == "registration" ? "webauthn.create" : "webauthn.get"), "\(vector)")
                if vector.expect["code"] != "challenge", let expected = vector.expectedChallenge {
                    #expect(data.challenge == (try Base64URL.decode(expected)), "\(vector)")
                }
                count += 1
            }
        }
        #expect(count > 80)
    }
}
