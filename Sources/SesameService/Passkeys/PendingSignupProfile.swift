import SesameStore
import SesameWire

/// A validated signup profile and its `user_metadata`, packed into one byte buffer while the
/// ceremony is pending. What a pending signup holds is bounded by what the server allows
/// (`maxTextBytes` of text in all), not by what a client sends, and takes one allocation instead
/// of one per field.
///
/// Layout: the first eight profile fields (email, phone number, username, then the first five
/// `ProfileAttribute`s), each a presence byte (0 or 1) then, when present, a 16-bit little-endian
/// length and the UTF-8 bytes; then the metadata count (one byte) and each key and value the same
/// way, keys in ascending order; then the attributes added since, in order, as the first eight,
/// up to the last one present. A signup begun by a build that knew fewer reads with the rest absent.
public struct PendingSignupProfile: Sendable, Hashable {
    /// The most text (UTF-8 bytes of every profile field, metadata key and value) a signup may hold.
    public static let maxTextBytes = 2_048

    let bytes: [UInt8]

    /// The number of bytes held.
    public var byteCount: Int { bytes.count }

    /// Bytes as packed (tests of damaged input).
    init(bytes: [UInt8]) { self.bytes = bytes }

    /// Packs `profile` (as `ProfileValidation` returned it) and `metadata`; 400 when their text
    /// exceeds `maxTextBytes`.
    init(profile: UserProfile, metadata: [String: String]) throws(ServiceError) {
        var fields = Self.fields(profile)
        while fields.count > Self.firstFields, fields.last == .some(nil) { fields.removeLast() }
        let entries = metadata.sorted { $0.key < $1.key }
        let text =
            fields.reduce(0) { $0 + ($1?.utf8.count ?? 0) }
            + entries.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        guard text <= Self.maxTextBytes else {
            throw .invalidRequest(
                "user_profile and user_metadata together hold more than \(Self.maxTextBytes) bytes of text")
        }
        guard entries.count <= UInt8.max else { throw .invalidRequest("user_metadata has too many values") }
        var out: [UInt8] = []
        out.reserveCapacity(text + 3 * fields.count + 1 + 4 * entries.count)
        func append(_ field: String?) {
            guard let field else { return out.append(0) }
            out.append(1)
            Self.append(field, to: &out)
        }
        fields.prefix(Self.firstFields).forEach(append)
        out.append(UInt8(entries.count))
        for (key, value) in entries {
            Self.append(key, to: &out)
            Self.append(value, to: &out)
        }
        fields.dropFirst(Self.firstFields).forEach(append)
        bytes = out
    }

    /// The profile and metadata packed in.
    func unpack() throws(ServiceError) -> (UserProfile, [String: String]) {
        var reader = Reader(bytes: bytes)
        var fields: [String?] = []
        func field() throws(ServiceError) -> String? {
            switch try reader.byte() {
            case 0: return nil
            case 1: return try reader.string()
            default: throw .unavailable("a pending signup could not be read")
            }
        }
        for _ in 0..<Self.firstFields { fields.append(try field()) }
        var metadata: [String: String] = [:]
        for _ in 0..<(try reader.byte()) {
            let key = try reader.string()
            metadata[key] = try reader.string()
        }
        let known = 3 + ProfileAttribute.allCases.count
        while !reader.isAtEnd, fields.count < known { fields.append(try field()) }
        guard reader.isAtEnd else { throw .unavailable("a pending signup could not be read") }
        fields += Array(repeating: nil, count: known - fields.count)
        var profile = UserProfile(email: fields[0], emailVerified: false, phoneNumber: fields[1], username: fields[2])
        for (index, attribute) in ProfileAttribute.allCases.enumerated() { profile[attribute] = fields[3 + index] }
        return (profile, metadata)
    }

    /// The fields before the metadata: the identifiers and the attributes there were when this
    /// layout began.
    static let firstFields = 8

    private static func fields(_ profile: UserProfile) -> [String?] {
        [profile.email, profile.phoneNumber, profile.username] + ProfileAttribute.allCases.map { profile[$0] }
    }

    /// Appends a 16-bit length and the UTF-8 bytes (every string here is under `maxTextBytes`).
    private static func append(_ text: String, to out: inout [UInt8]) {
        let count = UInt16(truncatingIfNeeded: text.utf8.count)
        out.append(UInt8(truncatingIfNeeded: count))
        out.append(UInt8(truncatingIfNeeded: count >> 8))
        out.append(contentsOf: text.utf8)
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        mutating func byte() throws(ServiceError) -> UInt8 {
            guard index < bytes.count else { throw .unavailable("a pending signup could not be read") }
            defer { index += 1 }
            return bytes[index]
        }

        mutating func string() throws(ServiceError) -> String {
            let count = Int(try byte()) | Int(try byte()) << 8
            guard count <= bytes.count - index,
                let text = String(validating: bytes[index..<(index + count)], as: UTF8.self)
            else { throw .unavailable("a pending signup could not be read") }
            index += count
            return text
        }
    }
}
