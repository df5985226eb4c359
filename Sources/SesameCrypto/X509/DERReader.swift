// A small, strict reader of DER TLVs for certificate extensions that libcrypto's generic ASN.1
// parser handles poorly (the Android KeyDescription uses context tags up to [7xx]). Parsing only:
// every signature and chain check still goes through libcrypto.

/// The class bits of a DER identifier octet.
enum DERTagClass: UInt8, Sendable {
    case universal = 0
    case application = 1
    case contextSpecific = 2
    case `private` = 3
}

/// A DER tag: class, constructed bit and number (high-tag-number form decoded).
struct DERTag: Equatable, Sendable {
    var tagClass: DERTagClass
    var isConstructed: Bool
    var number: UInt32

    static let integer = DERTag(tagClass: .universal, isConstructed: false, number: 2)
    static let octetString = DERTag(tagClass: .universal, isConstructed: false, number: 4)
    static let null = DERTag(tagClass: .universal, isConstructed: false, number: 5)
    static let enumerated = DERTag(tagClass: .universal, isConstructed: false, number: 10)
    static let sequence = DERTag(tagClass: .universal, isConstructed: true, number: 16)
    static let set = DERTag(tagClass: .universal, isConstructed: true, number: 17)

    /// `[number] EXPLICIT`: a constructed context-specific tag.
    static func explicit(_ number: UInt32) -> DERTag {
        DERTag(tagClass: .contextSpecific, isConstructed: true, number: number)
    }
}

/// One element read by `DERReader`: its tag and its content octets.
struct DERElement: Sendable {
    var tag: DERTag
    var contents: [UInt8]
    /// Nesting depth of this element (0 for a top-level element).
    var depth: Int

    /// A reader over this element's contents, one level deeper.
    func contentsReader() throws(CryptoError) -> DERReader {
        try DERReader(contents, depth: depth + 1)
    }
}

/// Reads a sequence of DER TLVs from a byte array. Definite lengths only, minimal length and tag
/// encodings, every length checked against the remaining bytes, nesting depth limited. Every
/// failure throws `CryptoError.certificate`.
struct DERReader: Sendable {
    /// Deepest nesting accepted; KeyDescription needs 4 levels.
    static let maximumDepth = 16

    private let bytes: [UInt8]
    private var position: Int
    private let depth: Int

    /// A reader over `bytes` at nesting `depth` (0 for a top-level document).
    init(_ bytes: [UInt8], depth: Int = 0) throws(CryptoError) {
        guard depth >= 0, depth <= DERReader.maximumDepth else {
            throw CryptoError.certificate("DER nesting deeper than \(DERReader.maximumDepth)")
        }
        self.bytes = bytes
        self.position = 0
        self.depth = depth
    }

    /// True when every byte has been read.
    var isAtEnd: Bool { position >= bytes.count }

    /// Reads the next element, whatever its tag.
    mutating func readElement() throws(CryptoError) -> DERElement {
        let tag = try readTag()
        let length = try readLength()
        guard length <= bytes.count - position else {
            throw CryptoError.certificate("DER length \(length) exceeds the \(bytes.count - position) bytes left")
        }
        let contents = Array(bytes[position..<(position + length)])
        position += length
        return DERElement(tag: tag, contents: contents, depth: depth)
    }

    /// Reads the next element and checks its tag.
    mutating func readElement(_ expected: DERTag) throws(CryptoError) -> DERElement {
        let element = try readElement()
        guard element.tag == expected else {
            throw CryptoError.certificate("DER: expected tag \(expected.describe), found \(element.tag.describe)")
        }
        return element
    }

    /// Throws unless every byte has been read.
    func expectEnd(_ what: String) throws(CryptoError) {
        guard isAtEnd else { throw CryptoError.certificate("DER: trailing bytes after \(what)") }
    }

    /// Reads an INTEGER (or ENUMERATED with `tag: .enumerated`) that fits in `Int`.
    mutating func readInteger(tag: DERTag = .integer) throws(CryptoError) -> Int {
        try DERReader.integerValue(of: readElement(tag).contents)
    }

    /// Reads an OCTET STRING and returns its contents.
    mutating func readOctetString() throws(CryptoError) -> [UInt8] {
        try readElement(.octetString).contents
    }

    /// Decodes two's-complement integer contents in minimal DER form into an `Int`.
    static func integerValue(of contents: [UInt8]) throws(CryptoError) -> Int {
        guard let first = contents.first else { throw CryptoError.certificate("DER: empty INTEGER") }
        if contents.count > 1 {
            let second = contents[1]
            if (first == 0x00 && second & 0x80 == 0) || (first == 0xFF && second & 0x80 != 0) {
                throw CryptoError.certificate("DER: INTEGER not minimally encoded")
            }
        }
        guard contents.count <= 8 else { throw CryptoError.certificate("DER: INTEGER too large") }
        var value: Int64 = first & 0x80 != 0 ? -1 : 0
        for byte in contents {
            value = (value << 8) | Int64(byte)
        }
        return Int(value)
    }

    private mutating func readByte() throws(CryptoError) -> UInt8 {
        guard position < bytes.count else { throw CryptoError.certificate("DER: truncated element") }
        let byte = bytes[position]
        position += 1
        return byte
    }

    private mutating func readTag() throws(CryptoError) -> DERTag {
        let first = try readByte()
        let tagClass = DERTagClass(rawValue: first >> 6) ?? .universal
        let isConstructed = first & 0x20 != 0
        let low = UInt32(first & 0x1F)
        guard low == 0x1F else { return DERTag(tagClass: tagClass, isConstructed: isConstructed, number: low) }
        // High-tag-number form: base-128 digits, most significant first, bit 8 set on all but the last.
        var number: UInt32 = 0
        for index in 0..<4 {
            let byte = try readByte()
            if index == 0 && byte == 0x80 { throw CryptoError.certificate("DER: tag number has a leading zero digit") }
            number = (number << 7) | UInt32(byte & 0x7F)
            if byte & 0x80 == 0 {
                guard number >= 0x1F else {
                    throw CryptoError.certificate("DER: tag number \(number) needs no long form")
                }
                return DERTag(tagClass: tagClass, isConstructed: isConstructed, number: number)
            }
        }
        throw CryptoError.certificate("DER: tag number too large")
    }

    private mutating func readLength() throws(CryptoError) -> Int {
        let first = try readByte()
        if first < 0x80 { return Int(first) }
        if first == 0x80 { throw CryptoError.certificate("DER: indefinite length") }
        let count = Int(first & 0x7F)
        guard count <= 4 else { throw CryptoError.certificate("DER: length of \(count) octets") }
        var length = 0
        for index in 0..<count {
            let byte = try readByte()
            if index == 0 && byte == 0 { throw CryptoError.certificate("DER: length has a leading zero octet") }
            length = (length << 8) | Int(byte)
        }
        guard length >= 0x80 else { throw CryptoError.certificate("DER: length \(length) needs no long form") }
        return length
    }
}

extension DERTag {
    /// A short human form for error messages, e.g. "[702]" or "universal 16".
    var describe: String {
        switch tagClass {
        case .contextSpecific: return "[\(number)]"
        case .universal: return "universal \(number)"
        case .application: return "application \(number)"
        case .private: return "private \(number)"
        }
    }
}
