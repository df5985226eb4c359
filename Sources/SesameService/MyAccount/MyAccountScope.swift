/// The My Account API scopes (Auth0's names).
public enum MyAccountScope: String, Sendable, CaseIterable {
    case read = "read:me:authentication_methods"
    case create = "create:me:authentication_methods"
    case update = "update:me:authentication_methods"
    case delete = "delete:me:authentication_methods"
}
