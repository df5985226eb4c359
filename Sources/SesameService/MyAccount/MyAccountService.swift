import Foundation
import SesameStore

/// The My Account API (`/me/v1`): a signed-in user lists, renames, deletes and enrolls passkeys.
public final class MyAccountService: Sendable {
    let access: StoreAccess
    let clock: any ServiceClock
    let passkeys: PasskeyService
    let tokens: TokenService

    public init(store: any SesameStore, clock: any ServiceClock, passkeys: PasskeyService, tokens: TokenService) {
        self.access = StoreAccess(store: store)
        self.clock = clock
        self.passkeys = passkeys
        self.tokens = tokens
    }
}
