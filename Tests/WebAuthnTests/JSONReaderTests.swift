import Foundation
import Testing
import WebAuthn

@Suite("JSONReader")
struct JSONReaderTests {
    @Test func readsEveryKindOfValue() throws {
        let value = try JSONReader.parse(
            Array(#" {"a": [1, -2.5e3, 0, true, false, null], "b": {"c": "d"}, "e": "", "f": []} "#.utf8))
        #expect(
            value
                == .object([
                    JSONMember(
                        name: "a",
                        value: .array([.number("1"), .number("-2.5e3"), .number("0"), .bool(true), .bool(false), .null])
                    ),
                    JSONMember(name: "b", value: .object([JSONMember(name: "c", value: .string("d"))])),
                    JSONMember(name: "e", value: .string("")),
                    JSONMember(name: "f", value: .array([])),
                ]))
    }

    @Test func decodesEscapes() throws {
        let value = try JSONReader.parse(
            Array(#"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u4e2d", "\ud83d\ude00", "https:\/\/x"]"#.utf8))
        #expect(
            value
                == .array([.string("a\"b\\c/d\u{08}\u{0C}\n\r\t"), .string("é中"), .string("😀"), .string("https://x")]))
    }

    @Test func keepsRawUTF8() throws {
        #expect(try JSONReader.parse(Array("\"héllo 😀\"".utf8)) == .string("héllo 😀"))
    }

    @Test(arguments: [
        "", " ", "{", "}", "[1,]", #"{"a":1,}"#, "01", "-", "1.", ".5", "1e", "+1", "NaN", "Infinity", "'a'",
        #"{"a" 1}"#, #"{a:1}"#, "[1 2]", "tru", "nul", "falsey", #""abc"#, "\"a\tb\"", #""\x""#, #""\u12""#,
        #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, "1 2", "// c\n1", #"{"a":1,"a":2}"#, "[] x",
    ])
    func rejectsInvalidJSON(_ text: String) {
        #expect(throws: WebAuthnError.self) { try JSONReader.parse(Array(text.utf8)) }
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: WebAuthnError.self) { try JSONReader.parse([0x22, 0xC3, 0x28, 0x22]) }
        // An encoded surrogate is not valid UTF-8.
        #expect(throws: WebAuthnError.self) { try JSONReader.parse([0x22, 0xED, 0xA0, 0x80, 0x22]) }
    }

    @Test func limitsNesting() throws {
        let ok = String(repeating: "[", count: JSONReader.maxDepth) + String(repeating: "]", count: JSONReader.maxDepth)
        _ = try JSONReader.parse(Array(ok.utf8))
        let deep = "[" + ok + "]"
        #expect(throws: WebAuthnError.self) { try JSONReader.parse(Array(deep.utf8)) }
        let hostile = String(repeating: "[", count: 100_000)
        #expect(throws: WebAuthnError.self) { try JSONReader.parse(Array(hostile.utf8)) }
    }

    @Test func agreesWithFoundationOnRealClientData() throws {
        // Every clientDataJSON in the conformance vectors reads the same as with JSONSerialization.
        for vector in ConformanceVector.all("registration") + ConformanceVector.all("authentication") {
            guard let encoded = vector.json["response"]?["response"]?["clientDataJSON"]?.string,
                let bytes = try? Base64URL.decode(encoded)
            else { continue }
            let ours = try JSONReader.parse(bytes)
            let foundation = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            for (key, value) in foundation {
                if let string = value as? String {
                    #expect(ours[key]?.stringValue == string, "\(vector.name) \(key)")
                } else {
                    #expect(ours[key] != nil, "\(vector.name) \(key)")
                }
            }
        }
    }

    /// Audit item 1: duplicate detection compared every member with every other, so a 64 KiB body
    /// of distinct names cost hundreds of milliseconds. Objects are now capped and checked through a set.
    @Test func capsMembersPerObject() throws {
        func object(_ count: Int) -> [UInt8] {
            Array(("{" + (0..<count).map { "\"m\($0)\":0" }.joined(separator: ",") + "}").utf8)
        }
        let largest = try JSONReader.parse(object(JSONReader.maxMembers))
        guard case .object(let members) = largest else { throw WebAuthnError(.malformed, "not an object") }
        #expect(members.count == JSONReader.maxMembers)
        let error = #expect(throws: WebAuthnError.self) { try JSONReader.parse(object(JSONReader.maxMembers + 1)) }
        #expect(error?.message.contains("more than \(JSONReader.maxMembers) members") == true)
        // A 64 KiB document of distinct member names stops at the cap.
        #expect(throws: WebAuthnError.self) { try JSONReader.parse(object(6_000)) }
    }

    @Test(arguments: [1, 15, 16, 17, 100, 255])
    func findsDuplicatesAtEverySize(_ count: Int) throws {
        // The duplicate repeats the first member, after `count` distinct ones: before and after the
        // switch from scanning to a set.
        let members = (0..<count).map { "\"m\($0)\":0" } + [#""m0":1"#]
        let error = #expect(throws: WebAuthnError.self) {
            try JSONReader.parse(Array(("{" + members.joined(separator: ",") + "}").utf8))
        }
        #expect(error?.message.contains("duplicate member \"m0\"") == true)
    }

    @Test func quotesAtMost64CharactersOfADuplicateName() throws {
        let name = String(repeating: "n", count: 1_000)
        let error = #expect(throws: WebAuthnError.self) {
            try JSONReader.parse(Array(#"{"\#(name)":1,"\#(name)":2}"#.utf8))
        }
        #expect((error?.message.utf8.count ?? .max) < 200)
    }

    @Test func truncationsNeverCrash() throws {
        let document = Array(
            #"{"id":"AAAA","response":{"clientDataJSON":"e30","x":[1,2,{"y":"\u00e9"}]},"n":-1.5e-3}"#.utf8)
        _ = try JSONReader.parse(document)
        for length in 0..<document.count {
            #expect(throws: WebAuthnError.self) { try JSONReader.parse(Array(document.prefix(length))) }
        }
    }
}

@Suite("JSONValue serialization")
struct JSONSerializationTests {
    @Test(arguments: [
        #"{"a":[1,-2.5e3,true,false,null],"b":{"c":"d\"e\\f\nx\u0001"},"é":"😀"}"#, "[]", "{}", #""""#, "0",
    ])
    func roundTrips(_ text: String) throws {
        let value = try JSONReader.parse(Array(text.utf8))
        #expect(try JSONReader.parse(value.serialized) == value)
    }

    /// Exactly which characters are escaped, and how: the quote, the backslash, control characters
    /// and the two line separators; everything else (ASCII, é, emoji, U+2027) as UTF-8.
    @Test func stringsAreEscapedMinimally() {
        let text = "a\"b\\c\nd\re\tf\u{01}g\u{1F}h\u{2028}i\u{2029}j\u{2027}é😀/"
        let written = String(decoding: WebAuthn.JSONValue.string(text).serialized, as: UTF8.self)
        #expect(written == #""a\"b\\c\nd\re\tf\u0001g\u001fh\u2028i\u2029j"# + "\u{2027}é😀/\"")
        #expect(String(decoding: WebAuthn.JSONValue.string("").serialized, as: UTF8.self) == #""""#)
        #expect(String(decoding: WebAuthn.JSONValue.string("\u{2028}").serialized, as: UTF8.self) == #""\u2028""#)
        #expect(String(decoding: WebAuthn.JSONValue.string("end\u{E2}").serialized, as: UTF8.self) == "\"end\u{E2}\"")
    }
}
