import WebAuthn

extension JSONValue {
    /// An object with members in the order given.
    static func document(_ members: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(members.map { JSONMember(name: $0.key, value: $0.value) })
    }

    /// An array of strings.
    static func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }
}
