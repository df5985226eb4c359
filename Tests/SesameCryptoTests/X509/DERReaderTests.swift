import Testing

@testable import SesameCrypto

@Suite("DERReader")
struct DERReaderTests {
    @Test("high-tag-number form: [702] EXPLICIT INTEGER")
    func highTag() throws {
        var reader = try DERReader([0xbf, 0x85, 0x3e, 0x03, 0x02, 0x01, 0x00])
        let element = try reader.readElement()
        #expect(element.tag == .explicit(702))
        #expect(element.contents == [0x02, 0x01, 0x00])
        #expect(reader.isAtEnd)
        var inner = try element.contentsReader()
        #expect(try inner.readInteger() == 0)
    }

    @Test("long-form length")
    func longLength() throws {
        let contents = [UInt8](repeating: 0x41, count: 200)
        var reader = try DERReader([0x04, 0x81, 0xc8] + contents)
        #expect(try reader.readOctetString() == contents)
    }

    @Test("integers: two's complement, minimal")
    func integers() throws {
        #expect(try DERReader.integerValue(of: [0x01, 0x2c]) == 300)
        #expect(try DERReader.integerValue(of: [0xff]) == -1)
        #expect(try DERReader.integerValue(of: [0x00, 0x80]) == 128)
        #expect(throws: CryptoError.certificate("DER: INTEGER not minimally encoded")) {
            try DERReader.integerValue(of: [0x00, 0x01])
        }
        #expect(throws: CryptoError.certificate("DER: INTEGER too large")) {
            try DERReader.integerValue(of: [0x01, 0, 0, 0, 0, 0, 0, 0, 0])
        }
        #expect(throws: CryptoError.certificate("DER: empty INTEGER")) { try DERReader.integerValue(of: []) }
    }

    @Test(
        "rejects malformed TLVs",
        arguments: [
            ([0x04], "DER: truncated element"),
            ([0x04, 0x05, 0x01, 0x02], "DER length 5 exceeds the 2 bytes left"),
            ([0x30, 0x80, 0x00, 0x00], "DER: indefinite length"),
            ([0x04, 0x81, 0x01, 0x00], "DER: length 1 needs no long form"),
            ([0x04, 0x82, 0x00, 0x81], "DER: length has a leading zero octet"),
            ([0x04, 0x85, 0x01, 0x01, 0x01, 0x01, 0x01], "DER: length of 5 octets"),
            ([0xbf, 0x1e, 0x00], "DER: tag number 30 needs no long form"),
            ([0xbf, 0x80, 0x01, 0x00], "DER: tag number has a leading zero digit"),
            ([0xbf, 0x81, 0x81, 0x81, 0x81, 0x01, 0x00], "DER: tag number too large"),
        ] as [([UInt8], String)])
    func malformed(bytes: [UInt8], reason: String) throws {
        var reader = try DERReader(bytes)
        #expect(throws: CryptoError.certificate(reason)) { try reader.readElement() }
    }

    @Test("a wrong tag names both tags")
    func wrongTag() throws {
        var reader = try DERReader([0x02, 0x01, 0x00])
        #expect(throws: CryptoError.certificate("DER: expected tag universal 4, found universal 2")) {
            try reader.readOctetString()
        }
    }

    @Test("nesting deeper than the limit throws")
    func depthLimit() throws {
        var document: [UInt8] = [0x05, 0x00]
        for _ in 0..<(DERReader.maximumDepth + 1) {
            document = [0x30, UInt8(document.count)] + document
        }
        var reader = try DERReader(document)
        var element = try reader.readElement()
        #expect(throws: CryptoError.certificate("DER nesting deeper than \(DERReader.maximumDepth)")) {
            while element.tag == .sequence {
                var inner = try element.contentsReader()
                element = try inner.readElement()
            }
        }
    }
}
