import Foundation
import SesameStore

/// One factor as `GET /guardian/factors` lists it.
public struct ManagedFactor: Encodable, Sendable, Equatable {
    public var name: String
    public var enabled: Bool
    public var trialExpired = false
    enum CodingKeys: String, CodingKey {
        case name, enabled
        case trialExpired = "trial_expired"
    }
}

/// Auth0's Guardian settings (`/api/v2/guardian/*`): which second factors users may enroll, and
/// when a password login asks for one.
extension ManagementService {
    /// `GET /guardian/factors`.
    public func factors(_ caller: ManagementCaller) throws(ServiceError) -> [ManagedFactor] {
        try caller.require(.readGuardianFactors)
        let enabled = try currentTenant(caller).mfa.factors
        return MFAFactor.allCases.map { ManagedFactor(name: $0.rawValue, enabled: enabled.contains($0)) }
    }

    /// `PUT /guardian/factors/{name}` `{"enabled": bool}`.
    public func setFactor(_ caller: ManagementCaller, name: String, enabled: Bool?) throws(ServiceError) -> Bool {
        try caller.require(.updateGuardianFactors)
        guard let factor = MFAFactor(rawValue: name) else {
            throw .notFound("no factor \(name.prefix(64)); Sesame offers otp, sms and recovery-code")
        }
        guard let enabled else { throw .invalidRequest("enabled is required") }
        try updateTenant(caller) { tenant in
            var factors = tenant.mfa.factors.filter { $0 != factor }
            if enabled { factors.append(factor) }
            tenant.mfa.factors = MFAFactor.allCases.filter(factors.contains)
        }
        return enabled
    }

    /// `GET /guardian/policies`: `[]` or `["all-applications"]`.
    public func mfaPolicies(_ caller: ManagementCaller) throws(ServiceError) -> [String] {
        try caller.require(.readMFAPolicies)
        return Self.policyNames(try currentTenant(caller).mfa.policy)
    }

    /// `PUT /guardian/policies`.
    public func setMFAPolicies(_ caller: ManagementCaller, _ names: [String]) throws(ServiceError) -> [String] {
        try caller.require(.updateMFAPolicies)
        let policy: MFAPolicy
        switch names {
        case []: policy = .enrolledUsers
        case ["all-applications"]: policy = .allApplications
        default: throw .invalidRequest("the policies must be [] or [\"all-applications\"]")
        }
        try updateTenant(caller) { $0.mfa.policy = policy }
        return Self.policyNames(policy)
    }

    static func policyNames(_ policy: MFAPolicy) -> [String] { policy == .allApplications ? ["all-applications"] : [] }

    func currentTenant(_ caller: ManagementCaller) throws(ServiceError) -> TenantRecord {
        try access.read { transaction in
            guard let tenant = try transaction.tenants.get(id: caller.tenant.id) else {
                throw ServiceError.notFound("the tenant no longer exists")
            }
            return tenant
        }
    }

    /// Read, change and write the tenant in one transaction.
    func updateTenant(_ caller: ManagementCaller, _ change: (inout TenantRecord) throws -> Void) throws(ServiceError) {
        let now = clock.now()
        try access.write(.durable) { transaction in
            guard var tenant = try transaction.tenants.get(id: caller.tenant.id) else {
                throw ServiceError.notFound("the tenant no longer exists")
            }
            try change(&tenant)
            tenant.updatedAt = now
            try transaction.tenants.update(tenant)
        }
    }
}
