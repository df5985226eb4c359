import SesameStore

extension UserRecord {
    /// A recovery code the user has not yet said they saved (its sealed copy is still kept).
    public var hasUnsavedRecoveryCode: Bool {
        mfa.contains { $0.factor == .recoveryCode && !$0.sealedSecret.isEmpty }
    }

    /// Removes the enrollments `matching`; when no second factor is left, the recovery code goes
    /// too (it recovers nothing then). The one rule for the user's own removal and an
    /// administrator's. Returns what went.
    mutating func removeFactors(where matching: (MFAEnrollment) -> Bool) -> [MFAEnrollment] {
        var gone = mfa.filter(matching)
        mfa.removeAll(where: matching)
        if !mfa.contains(where: { $0.factor != .recoveryCode }) {
            gone += mfa
            mfa.removeAll()
        }
        return gone
    }
}
