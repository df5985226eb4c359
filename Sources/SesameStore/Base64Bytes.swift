import Foundation

/// Stores a byte field as a base64 string in the record's JSON. JSONEncoder writes `[UInt8]` as an
/// array of numbers, which costs about five times more to decode than base64 (measured on the
/// SQLite point read of a passkey: 50 µs vs 9 µs), and a login reads one on its path.
@propertyWrapper
public struct Base64Bytes: Sendable, Hashable, Codable {
    public var wrappedValue: [UInt8]

    public init(wrappedValue: [UInt8]) {
        self.wrappedValue = wrappedValue
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let data = Data(base64Encoded: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not base64")
        }
        wrappedValue = [UInt8](data)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Data(wrappedValue).base64EncodedString())
    }
}

/// An optional byte field stored as a base64 string (absent when nil).
@propertyWrapper
public struct OptionalBase64Bytes: Sendable, Hashable, Codable {
    public var wrappedValue: [UInt8]?

    public init(wrappedValue: [UInt8]?) {
        self.wrappedValue = wrappedValue
    }

    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decodeNil() ? nil : Base64Bytes(from: decoder).wrappedValue
    }

    public func encode(to encoder: any Encoder) throws {
        guard let wrappedValue else {
            var container = encoder.singleValueContainer()
            return try container.encodeNil()
        }
        try Base64Bytes(wrappedValue: wrappedValue).encode(to: encoder)
    }
}

extension KeyedDecodingContainer {
    /// A missing optional byte field decodes as nil.
    public func decode(_ type: OptionalBase64Bytes.Type, forKey key: Key) throws -> OptionalBase64Bytes {
        try decodeIfPresent(type, forKey: key) ?? OptionalBase64Bytes(wrappedValue: nil)
    }
}
