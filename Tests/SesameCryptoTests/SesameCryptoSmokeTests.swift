import Testing
@testable import SesameCrypto
