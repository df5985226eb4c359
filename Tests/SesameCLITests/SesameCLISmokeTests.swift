import Testing
@testable import SesameCLI
