// sesame-fake-apple: a local fake of Sign in with Apple's endpoints for testers (docs/fake-apple.md).
import Foundation
import SesameTesting

exit(FakeAppleIDCommandLine.run(Array(CommandLine.arguments.dropFirst())))
