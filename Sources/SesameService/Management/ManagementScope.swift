/// The Management API scopes (Auth0's names); `Bootstrap.managementScopes` grants them all.
public enum ManagementScope: String, Sendable, CaseIterable {
    case readClients = "read:clients"
    case createClients = "create:clients"
    case updateClients = "update:clients"
    case deleteClients = "delete:clients"
    case readConnections = "read:connections"
    case createConnections = "create:connections"
    case updateConnections = "update:connections"
    case deleteConnections = "delete:connections"
    case readUsers = "read:users"
    case updateUsers = "update:users"
    case deleteUsers = "delete:users"
    case readAuthenticationMethods = "read:authentication_methods"
    case deleteAuthenticationMethods = "delete:authentication_methods"
    case readTenantSettings = "read:tenant_settings"
    case updateTenantSettings = "update:tenant_settings"
}
