import Foundation

extension AuthenticationError {
    /// The user already has a synced passkey from the provider the new one came from (409
    /// `already_registered`, docs/migration.md): nothing was stored, and the one they have is worth
    /// offering first. The SDK sets the user's prefer-passkey flag on it.
    public var isAlreadyRegistered: Bool { code == "already_registered" }

    /// The provider the user already has a passkey in ("iCloud Keychain", "Google Password
    /// Manager"), as the answer names it (`provider`, in the OAuth error and in My Account's
    /// problem alike), so the app can say where to look.
    public var alreadyRegisteredProvider: String? {
        guard isAlreadyRegistered, kind == .server, let body,
            let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let provider = object["provider"] as? String, !provider.isEmpty
        else { return nil }
        return provider
    }
}
