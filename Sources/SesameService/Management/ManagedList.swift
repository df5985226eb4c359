/// A list response: a bare JSON array, or with `include_totals` Auth0's
/// `{"start", "limit", "length", "total", "<name>": [...]}`.
public struct ManagedList<Item: Encodable & Sendable>: Encodable, Sendable {
    /// The member name that holds the items with totals ("clients", "connections", "users").
    public let name: String
    public let items: [Item]
    public let start: Int
    public let limit: Int
    /// Set when totals were asked for.
    public let total: Int?

    public func encode(to encoder: any Encoder) throws {
        guard let total else {
            var container = encoder.singleValueContainer()
            try container.encode(items)
            return
        }
        var container = encoder.container(keyedBy: DynamicKey.self)
        try container.encode(start, forKey: DynamicKey("start"))
        try container.encode(limit, forKey: DynamicKey("limit"))
        try container.encode(items.count, forKey: DynamicKey("length"))
        try container.encode(total, forKey: DynamicKey("total"))
        try container.encode(items, forKey: DynamicKey(name))
    }

    private struct DynamicKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
