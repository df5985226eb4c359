import Testing
import WebAuthn

@Suite("CBOR decoder and canonical encoder")
struct CBORTests {
    typealias V = CBORValue

    static func text(_ s: String) -> V { .text(s) }
    static func map(_ pairs: [(V, V)]) -> V { .map(pairs.map { CBORMapEntry(key: $0.0, value: $0.1) }) }

    /// RFC 8949 Appendix A examples that use only definite lengths: (hex, value, canonical hex).
    /// The canonical form equals the input except for floats that have a shorter exact form.
    static let appendixA: [(String, V, String?)] = [
        ("00", .unsigned(0), nil), ("01", .unsigned(1), nil), ("0a", .unsigned(10), nil),
        ("17", .unsigned(23), nil), ("1818", .unsigned(24), nil), ("1819", .unsigned(25), nil),
        ("1864", .unsigned(100), nil), ("1903e8", .unsigned(1000), nil), ("1a000f4240", .unsigned(1_000_000), nil),
        ("1b000000e8d4a51000", .unsigned(1_000_000_000_000), nil),
        ("1bffffffffffffffff", .unsigned(UInt64.max), nil),
        ("c249010000000000000000", .tagged(2, .bytes([1, 0, 0, 0, 0, 0, 0, 0, 0])), nil),
        ("3bffffffffffffffff", .negative(UInt64.max), nil),
        ("c349010000000000000000", .tagged(3, .bytes([1, 0, 0, 0, 0, 0, 0, 0, 0])), nil),
        ("20", .negative(0), nil), ("29", .negative(9), nil), ("3863", .negative(99), nil),
        ("3903e7", .negative(999), nil),
        ("f90000", .double(0.0), nil), ("f98000", .double(-0.0), nil), ("f93c00", .double(1.0), nil),
        ("fb3ff199999999999a", .double(1.1), nil), ("f93e00", .double(1.5), nil),
        ("f97bff", .double(65504.0), nil), ("fa47c35000", .double(100000.0), nil),
        ("fa7f7fffff", .double(3.4028234663852886e+38), nil), ("fb7e37e43c8800759c", .double(1.0e+300), nil),
        ("f90001", .double(5.960464477539063e-8), nil), ("f90400", .double(0.00006103515625), nil),
        ("f9c400", .double(-4.0), nil), ("fbc010666666666666", .double(-4.1), nil),
        ("f97c00", .double(.infinity), nil), ("f9fc00", .double(-.infinity), nil),
        ("fa7f800000", .double(.infinity), "f97c00"), ("faff800000", .double(-.infinity), "f9fc00"),
        ("fb7ff0000000000000", .double(.infinity), "f97c00"), ("fbfff0000000000000", .double(-.infinity), "f9fc00"),
        ("f4", .bool(false), nil), ("f5", .bool(true), nil), ("f6", .null, nil), ("f7", .undefined, nil),
        ("f0", .simple(16), nil), ("f8ff", .simple(255), nil),
        ("c074323031332d30332d32315432303a30343a30305a", .tagged(0, text("2013-03-21T20:04:00Z")), nil),
        ("c11a514b67b0", .tagged(1, .unsigned(1_363_896_240)), nil),
        ("c1fb41d452d9ec200000", .tagged(1, .double(1363896240.5)), nil),
        ("d74401020304", .tagged(23, .bytes([1, 2, 3, 4])), nil),
        ("d818456449455446", .tagged(24, .bytes([0x64, 0x49, 0x45, 0x54, 0x46])), nil),
        ("d82076687474703a2f2f7777772e6578616d706c652e636f6d", .tagged(32, text("http://www.example.com")), nil),
        ("40", .bytes([]), nil), ("4401020304", .bytes([1, 2, 3, 4]), nil),
        ("60", text(""), nil), ("6161", text("a"), nil), ("6449455446", text("IETF"), nil),
        ("62225c", text("\"\\"), nil), ("62c3bc", text("\u{FC}"), nil), ("63e6b0b4", text("\u{6C34}"), nil),
        ("64f0908591", text("\u{10151}"), nil),
        ("80", .array([]), nil), ("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)]), nil),
        (
            "8301820203820405",
            .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])]), nil
        ),
        (
            "98190102030405060708090a0b0c0d0e0f101112131415161718181819",
            .array((1...25).map { V.unsigned(UInt64($0)) }), nil
        ),
        ("a0", .map([]), nil),
        ("a201020304", map([(.unsigned(1), .unsigned(2)), (.unsigned(3), .unsigned(4))]), nil),
        (
            "a26161016162820203",
            map([(text("a"), .unsigned(1)), (text("b"), .array([.unsigned(2), .unsigned(3)]))]), nil
        ),
        ("826161a161626163", .array([text("a"), map([(text("b"), text("c"))])]), nil),
        (
            "a56161614161626142616361436164614461656145",
            map([
                (text("a"), text("A")), (text("b"), text("B")), (text("c"), text("C")), (text("d"), text("D")),
                (text("e"), text("E")),
            ]), nil
        ),
    ]

    @Test func decodesAndCanonicallyReencodesAppendixA() throws {
        for (hex, expected, canonical) in Self.appendixA {
            let bytes = ParsingFixtures.hex(hex)
            let value = try CBORDecoder().decode(bytes)
            #expect(value == expected, "decoding \(hex)")
            #expect(ParsingFixtures.hexString(CBOREncoder.encode(value)) == (canonical ?? hex), "encoding \(hex)")
        }
    }

    @Test(arguments: ["f97e00", "fa7fc00000", "fb7ff8000000000000"])
    func decodesNaNAndEncodesTheCanonicalHalf(_ hex: String) throws {
        let value = try CBORDecoder().decode(ParsingFixtures.hex(hex))
        guard case .double(let number) = value else {
            Issue.record("\(hex) did not decode to a double")
            return
        }
        #expect(number.isNaN)
        #expect(CBOREncoder.encode(value) == [0xF9, 0x7E, 0x00])
    }

    @Test func encodesFloatsInTheShortestExactForm() {
        #expect(ParsingFixtures.hexString(CBOREncoder.encode(.double(0.5))) == "f93800")
        #expect(ParsingFixtures.hexString(CBOREncoder.encode(.double(65505.0))) == "fa477fe100")
        #expect(ParsingFixtures.hexString(CBOREncoder.encode(.double(1.0e-7))) == "fb3e7ad7f29abcaf48")
        // Half-precision subnormal boundary values.
        #expect(ParsingFixtures.hexString(CBOREncoder.encode(.double(6.097555160522461e-05))) == "f903ff")
    }

    @Test func acceptsNonShortestHeadsAndReencodesThemShortest() throws {
        #expect(try CBORDecoder().decode(ParsingFixtures.hex("1800")) == .unsigned(0))
        #expect(try CBORDecoder().decode(ParsingFixtures.hex("1b0000000000000001")) == .unsigned(1))
        let value = try CBORDecoder().decode(ParsingFixtures.hex("590002abcd"))
        #expect(value == .bytes([0xAB, 0xCD]))
        #expect(CBOREncoder.encode(value) == [0x42, 0xAB, 0xCD])
    }

    @Test func sortsMapKeysLengthFirstThenBytewise() {
        let value = Self.map([
            (Self.text("aa"), .unsigned(1)), (.negative(0), .unsigned(2)), (Self.text("b"), .unsigned(3)),
            (.unsigned(100), .unsigned(4)), (.unsigned(10), .unsigned(5)), (.negative(2), .unsigned(6)),
        ])
        // Keys encode as 0a, 20, 22, 1864, 6162, 626161 once sorted by length, then bytes.
        #expect(ParsingFixtures.hexString(CBOREncoder.encode(value)) == "a60a0520022206186404616203" + "62616101")
    }

    @Test func decodePrefixReportsTheBytesUsed() throws {
        let bytes = ParsingFixtures.hex("8201020304")
        let (value, used) = try CBORDecoder().decodePrefix(bytes[...])
        #expect(value == .array([.unsigned(1), .unsigned(2)]))
        #expect(used == 3)
        let (tail, tailUsed) = try CBORDecoder().decodePrefix(bytes[3...])
        #expect(tail == .unsigned(3))
        #expect(tailUsed == 1)
    }

    @Test func accessorsReadMapsAndIntegers() throws {
        let value = try CBORDecoder().decode(ParsingFixtures.hex("a30102032661616163"))
        #expect(value[intKey: 1]?.intValue == 2)
        #expect(value[intKey: 3]?.intValue == -7)
        #expect(value[textKey: "a"]?.textValue == "c")
        #expect(value[intKey: 4] == nil)
        #expect(V.unsigned(UInt64.max).intValue == nil)
        #expect(V.negative(UInt64(Int64.max)).intValue == Int64.min)
        #expect(V.bytes([1]).bytesValue == [1])
        #expect(V.array([]).arrayValue == [])
        #expect(V.map([]).mapValue == [])
        #expect(V.unsigned(1).textValue == nil)
        #expect(V(Int.min) == .negative(UInt64(Int.max)))
    }

    // MARK: - Rejections

    static func decodeError(_ hex: String, limits: CBORLimits = CBORLimits()) -> WebAuthnError? {
        ParsingFixtures.error { try CBORDecoder(limits: limits).decode(ParsingFixtures.hex(hex)) }
    }

    @Test(arguments: [
        ("5f42010243030405ff", "CBOR: indefinite-length item (not allowed in WebAuthn) at offset 0"),
        ("7f657374726561646d696e67ff", "CBOR: indefinite-length item (not allowed in WebAuthn) at offset 0"),
        ("9fff", "CBOR: indefinite-length item (not allowed in WebAuthn) at offset 0"),
        ("bf6346756ef563416d7421ff", "CBOR: indefinite-length item (not allowed in WebAuthn) at offset 0"),
        ("8301829f0203ff", "CBOR: indefinite-length item (not allowed in WebAuthn) at offset 3"),
        ("ff", "CBOR: unexpected break code at offset 0"),
        ("1f", "CBOR: indefinite-length item (not allowed in WebAuthn) at offset 0"),
    ])
    func rejectsIndefiniteLengths(_ hex: String, _ message: String) {
        #expect(Self.decodeError(hex) == WebAuthnError(.malformed, message))
    }

    @Test(arguments: ["1c", "1d", "1e", "3c", "5d", "7e", "9c", "bd", "de", "fc", "fd", "fe"])
    func rejectsReservedAdditionalInformation(_ hex: String) {
        let info = (ParsingFixtures.hex(hex).first ?? 0) & 0x1F
        #expect(
            Self.decodeError(hex)
                == WebAuthnError(.malformed, "CBOR: reserved additional information \(info) at offset 0"))
    }

    @Test func rejectsTwoByteSimpleValuesBelow32() {
        #expect(
            Self.decodeError("f818")
                == WebAuthnError(.malformed, "CBOR: simple value 24 must use the one-byte form at offset 2"))
        #expect(
            Self.decodeError("f814")
                == WebAuthnError(.malformed, "CBOR: simple value 20 must use the one-byte form at offset 2"))
    }

    @Test func rejectsTrailingBytes() {
        #expect(Self.decodeError("0000") == WebAuthnError(.malformed, "CBOR: 1 trailing bytes after the item"))
        #expect(Self.decodeError("a0a0a0") == WebAuthnError(.malformed, "CBOR: 2 trailing bytes after the item"))
    }

    @Test func rejectsEmptyAndTruncatedInput() {
        #expect(Self.decodeError("") == WebAuthnError(.malformed, "CBOR: unexpected end of input at offset 0"))
        #expect(
            Self.decodeError("1a0000")
                == WebAuthnError(.malformed, "CBOR: unexpected end of input in a 4-byte argument at offset 1"))
        #expect(
            Self.decodeError("440102")
                == WebAuthnError(.malformed, "CBOR: byte string claims 4 bytes but only 2 remain at offset 1"))
        #expect(
            Self.decodeError("8301")
                == WebAuthnError(.malformed, "CBOR: array claims 3 items but only 1 bytes remain at offset 1"))
        #expect(
            Self.decodeError("820118")
                == WebAuthnError(.malformed, "CBOR: unexpected end of input in a 1-byte argument at offset 3"))
        #expect(
            Self.decodeError("a201")
                == WebAuthnError(.malformed, "CBOR: map claims 2 pairs but only 1 bytes remain at offset 1"))
    }

    @Test func rejectsHugeLengthClaimsBeforeAllocating() {
        #expect(
            Self.decodeError("5bffffffffffffffff0102")
                == WebAuthnError(
                    .malformed,
                    "CBOR: byte string of 18446744073709551615 bytes exceeds the 1048576-byte limit at offset 9"))
        #expect(
            Self.decodeError("7a000fffff6161")
                == WebAuthnError(.malformed, "CBOR: text string claims 1048575 bytes but only 2 remain at offset 5"))
        #expect(
            Self.decodeError("9bffffffffffffffff00")
                == WebAuthnError(
                    .malformed, "CBOR: array claims 18446744073709551615 items but only 1 bytes remain at offset 9"))
        #expect(
            Self.decodeError("bb7fffffffffffffff0000")
                == WebAuthnError(
                    .malformed, "CBOR: map claims 9223372036854775807 pairs but only 2 bytes remain at offset 9"))
        #expect(
            Self.decodeError("4401020304", limits: CBORLimits(maxLength: 3))
                == WebAuthnError(.malformed, "CBOR: byte string of 4 bytes exceeds the 3-byte limit at offset 1"))
    }

    @Test func enforcesTheDepthLimit() throws {
        let ok = String(repeating: "81", count: 16) + "00"
        #expect(throws: Never.self) { try CBORDecoder().decode(ParsingFixtures.hex(ok)) }
        let deep = String(repeating: "81", count: 17) + "00"
        #expect(Self.decodeError(deep) == WebAuthnError(.malformed, "CBOR: nesting deeper than 16 at offset 17"))
        let tags = String(repeating: "c1", count: 17) + "00"
        #expect(Self.decodeError(tags) == WebAuthnError(.malformed, "CBOR: nesting deeper than 16 at offset 17"))
        let maps = String(repeating: "a100", count: 3) + "00"
        #expect(
            Self.decodeError(maps, limits: CBORLimits(maxDepth: 2))
                == WebAuthnError(.malformed, "CBOR: nesting deeper than 2 at offset 5"))
    }

    @Test func enforcesTheItemLimit() throws {
        #expect(throws: Never.self) {
            try CBORDecoder(limits: CBORLimits(maxItems: 3)).decode(ParsingFixtures.hex("820102"))
        }
        #expect(
            Self.decodeError("83010203", limits: CBORLimits(maxItems: 3))
                == WebAuthnError(.malformed, "CBOR: more than 3 items at offset 3"))
        // 5000 zeros in one array: within every length check, beyond the default 4096 items.
        let many = "991388" + String(repeating: "00", count: 5000)
        #expect(Self.decodeError(many) == WebAuthnError(.malformed, "CBOR: more than 4096 items at offset 4098"))
    }

    @Test func rejectsDuplicateMapKeys() {
        #expect(Self.decodeError("a201020103") == WebAuthnError(.malformed, "CBOR: duplicate map key at offset 3"))
        #expect(
            Self.decodeError("a2616101616102") == WebAuthnError(.malformed, "CBOR: duplicate map key at offset 4"))
        // Ten entries takes the hashed path.
        let ten = "aa" + (0..<9).map { String(format: "%02x00", $0) }.joined() + "0500"
        #expect(Self.decodeError(ten) == WebAuthnError(.malformed, "CBOR: duplicate map key at offset 19"))
        // Equal values, different encodings, are still duplicates.
        #expect(Self.decodeError("a20102180103") == WebAuthnError(.malformed, "CBOR: duplicate map key at offset 3"))
    }

    @Test(arguments: ["62c328", "61ff", "63eda080", "62c0af", "64f8888080"])
    func rejectsInvalidUTF8(_ hex: String) {
        #expect(Self.decodeError(hex) == WebAuthnError(.malformed, "CBOR: text string is not valid UTF-8 at offset 1"))
    }
}
