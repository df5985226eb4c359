/// What a PATCH does to a nullable field: leave it, set it, or remove it (JSON `null`).
public enum FieldChange<Value: Sendable>: Sendable {
    case keep
    case set(Value)
    case remove
}
