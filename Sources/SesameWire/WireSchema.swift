/// The JSON type of one member of a request body, with the limits the server enforces.
///
/// A body's table of `WireField`s is declared once; the server reads and checks the body by it
/// (unknown members, types, lengths, counts, required members), and the OpenAPI document's request
/// schemas are rendered from it (docs/openapi.md), so the two cannot disagree.
public indirect enum WireType: Sendable, Hashable {
    /// A string of `minLength` to `maxLength` UTF-8 bytes; `pattern` (ECMA-262, anchored) and
    /// `format` document what the service checks after the body is read.
    case string(maxLength: Int, minLength: Int = 0, pattern: String? = nil, format: String? = nil)
    /// One of a closed vocabulary's raw values (checked by the service, which names the choices).
    case oneOf([String])
    case boolean
    /// An integer in `range`, when the service bounds it.
    case integer(ClosedRange<Int>?)
    /// An array of `minItems` to `maxItems` elements of one type.
    case array(WireType, maxItems: Int, minItems: Int = 0)
    /// A nested object with its own table.
    case object(WireObject)
    /// A string of at most `maxCharacters` characters, counted by the service (the body reader
    /// caps it at four bytes a character).
    case characters(Int)
    /// Text people type and others see (a name): 1 to `maxCharacters` characters with no
    /// `UnsafeText` scalar, checked by the service (the body reader caps it at four bytes a
    /// character).
    case displayText(Int)
    /// One of two forms (a JWK object or its text); the first that fits is taken.
    case either(WireType, WireType)
    /// One string or an array of them (Auth0 holds some settings either way).
    case stringOrArray(maxLength: Int, maxItems: Int)
    /// An object whose members, named freely, are all of one type (metadata, texts by language),
    /// or `null` where `nullableValues` (a PATCH's "remove this key"); `keys`, what the service
    /// takes as a member's name, when it checks them.
    case map(WireType, maxMembers: Int?, nullableValues: Bool = false, keys: WireType? = nil)
    /// A JSON object the service parses itself (a WebAuthn credential, a JWK), described by the
    /// OpenAPI component it names.
    case component(String)
    /// An object with its own table that the document names once among its components and
    /// refers to by name (a JWK, a device).
    case named(String, WireObject)
    /// A member Auth0 defines that Sesame refuses with its own message (`organization`): any
    /// value is a 400, and the document says so.
    case refused(String)

    /// The raw values of a closed vocabulary, in declaration order.
    public static func vocabulary<Vocabulary: CaseIterable & RawRepresentable>(_ type: Vocabulary.Type) -> WireType
    where Vocabulary.RawValue == String {
        .oneOf(type.allCases.map(\.rawValue))
    }

    /// The most UTF-8 bytes the body reader accepts for a string member (a vocabulary's value is
    /// read as text, then named by the service).
    public var maxLength: Int? {
        switch self {
        case .string(let maxLength, _, _, _), .stringOrArray(let maxLength, _): maxLength
        case .characters(let count), .displayText(let count): 4 * count
        case .oneOf: 4_096
        default: nil
        }
    }

    /// The byte limit of each element of a list.
    public var elementMaxLength: Int? {
        switch self {
        case .array(let element, _, _): element.maxLength
        case .stringOrArray(let maxLength, _): maxLength
        default: nil
        }
    }

    /// The most elements of a list.
    public var maxItems: Int? {
        switch self {
        case .array(_, let maxItems, _), .stringOrArray(_, let maxItems): maxItems
        default: nil
        }
    }

    /// A string of at most `maxLength` bytes.
    public static func text(_ maxLength: Int) -> WireType { .string(maxLength: maxLength) }

    /// An array of strings of at most `maxLength` bytes each.
    public static func texts(_ maxLength: Int, maxItems: Int) -> WireType {
        .array(.string(maxLength: maxLength), maxItems: maxItems)
    }
}

/// One member of a request body: its JSON name, its type, and whether it must be given or may be
/// `null`.
public struct WireField: Sendable, Hashable {
    public let name: String
    public let type: WireType
    /// Absent, `null` or (for a string) empty is refused with "`name` is required".
    public let isRequired: Bool
    /// The member must be given, but the service refuses its absence in its own words (a missing
    /// `client_id` is `invalid_client`, not a malformed body); the document lists it as required.
    public let isRequiredByService: Bool
    /// `null` is accepted: as absent on the public endpoints, as "remove" in a PATCH.
    public let isNullable: Bool
    /// What the OpenAPI document says of the member, when its name does not say enough.
    public let description: String?

    public init(
        _ name: String, _ type: WireType, required: Bool = false, nullable: Bool = false, description: String? = nil,
        requiredByService: Bool = false
    ) {
        self.name = name
        self.type = type
        self.isRequired = required
        self.isRequiredByService = requiredByService
        self.isNullable = nullable
        self.description = description
    }

    /// The same member, required.
    public var required: WireField {
        WireField(name, type, required: true, nullable: isNullable, description: description)
    }

    /// The same member, required, its absence refused by the service rather than the body reader.
    public var requiredByService: WireField {
        WireField(name, type, nullable: isNullable, description: description, requiredByService: true)
    }

    /// The same member, `null` allowed.
    public var nullable: WireField {
        WireField(
            name, type, required: isRequired, nullable: true, description: description,
            requiredByService: isRequiredByService)
    }

    /// The same member with a narrower type: the server lists a vocabulary's values where the
    /// declaration (shared with the SDK, which does not know them) says only text.
    public func typed(_ type: WireType) -> WireField {
        WireField(
            name, type, required: isRequired, nullable: isNullable, description: description,
            requiredByService: isRequiredByService)
    }

    /// Whether the document lists the member as required.
    public var isDocumentedRequired: Bool { isRequired || isRequiredByService }
}

/// The table of a request body, or of an object inside one.
public struct WireObject: Sendable, Hashable {
    public let fields: [WireField]
    /// The members' names, as a set (what a closed table admits), made once with the table.
    public let nameSet: Set<String>
    /// Members the table does not name are refused (`additionalProperties: false`).
    public let isClosed: Bool
    /// What the OpenAPI document says of the object.
    public let description: String?

    public init(_ fields: [WireField], closed: Bool = true, description: String? = nil) {
        self.fields = fields
        self.nameSet = Set(fields.map(\.name))
        self.isClosed = closed
        self.description = description
    }

    /// The member called `name`.
    public func field(_ name: String) -> WireField? { fields.first { $0.name == name } }

    /// The members' names, in order.
    public var names: [String] { fields.map(\.name) }

    /// This table with `more` members after its own.
    public func adding(_ more: [WireField]) -> WireObject {
        WireObject(fields + more, closed: isClosed, description: description)
    }
}
