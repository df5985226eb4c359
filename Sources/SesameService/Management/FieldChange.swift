/// What a PATCH does to a nullable field: leave it, set it, or remove it (JSON `null`).
public enum FieldChange<Value: Sendable>: Sendable {
    case keep
    case set(Value)
    case remove
}

extension FieldChange {
    /// The same change with a set value transformed.
    func map<Other>(_ transform: (Value) -> Other) -> FieldChange<Other> {
        switch self {
        case .keep: .keep
        case .set(let value): .set(transform(value))
        case .remove: .remove
        }
    }
}
