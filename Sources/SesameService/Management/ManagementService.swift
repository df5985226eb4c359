import Foundation
import SesameCrypto
import SesameStore

/// The Management API (`/api/v2`): clients, connections, users and their authentication methods,
/// tenant settings. Every call is authorized by an m2m access token with the route's scope.
public final class ManagementService: Sendable {
    let access: StoreAccess
    let clock: any ServiceClock
    let random: any RandomSource
    let tokens: TokenService

    public init(store: any SesameStore, clock: any ServiceClock, random: any RandomSource, tokens: TokenService) {
        self.access = StoreAccess(store: store)
        self.clock = clock
        self.random = random
        self.tokens = tokens
    }
}
