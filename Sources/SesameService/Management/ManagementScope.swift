/// The Management API scopes (Auth0's names); `Bootstrap.managementScopes` grants them all.
///
/// A client secret is a credential: a response carries one (a confidential client created,
/// a secret rotated or minted) only for a caller holding `read:client_keys`, and only the holder
/// of `update:client_keys` can make a new secret for an existing client. Sesame keeps only the
/// SHA-256 of a secret, so no call ever shows a stored one.
public enum ManagementScope: String, Sendable, CaseIterable {
    case readClients = "read:clients"
    case createClients = "create:clients"
    case updateClients = "update:clients"
    case deleteClients = "delete:clients"
    case readClientKeys = "read:client_keys"
    case updateClientKeys = "update:client_keys"
    case readConnections = "read:connections"
    case createConnections = "create:connections"
    case updateConnections = "update:connections"
    case deleteConnections = "delete:connections"
    case readUsers = "read:users"
    case createUsers = "create:users"
    case updateUsers = "update:users"
    case deleteUsers = "delete:users"
    case readAuthenticationMethods = "read:authentication_methods"
    case deleteAuthenticationMethods = "delete:authentication_methods"
    case readClientGrants = "read:client_grants"
    case createClientGrants = "create:client_grants"
    case updateClientGrants = "update:client_grants"
    case deleteClientGrants = "delete:client_grants"
    case readResourceServers = "read:resource_servers"
    case createResourceServers = "create:resource_servers"
    case updateResourceServers = "update:resource_servers"
    case deleteResourceServers = "delete:resource_servers"
    case readOutbox = "read:outbox"
    case readAttackProtection = "read:attack_protection"
    case updateAttackProtection = "update:attack_protection"
    case readGuardianFactors = "read:guardian_factors"
    case updateGuardianFactors = "update:guardian_factors"
    case readMFAPolicies = "read:mfa_policies"
    case updateMFAPolicies = "update:mfa_policies"
    case readTenantSettings = "read:tenant_settings"
    case updateTenantSettings = "update:tenant_settings"
    /// The adoption statistics (`/api/v2/stats/*`, Auth0's scope name).
    case readStats = "read:stats"
    /// The audit log (`/api/v2/logs`, Auth0's scope name).
    case readLogs = "read:logs"
}
