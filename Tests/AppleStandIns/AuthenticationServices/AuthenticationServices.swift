// A stand-in for the Swift view of Apple's AuthenticationServices framework, written by hand from
// the public headers (ASAuthorizationController.h, ASAuthorization.h, ASAuthorizationError.h,
// ASAuthorizationPlatformPublicKeyCredential*.h, ASAuthorizationPublicKeyCredential*.h,
// ASPublicKeyCredential.h, ASFoundation.h, ASExtensionErrors.h, ASCredentialServiceIdentifier.h,
// ASPasswordCredential.h, ASAuthorizationAppleIDCredential.h, ASAccountAuthenticationModification*.h)
// and Apple's Swift documentation of them, so that Linux can type-check the adapters in
// Sources/SesameClient/Apple.
// scripts/apple-standins-check.sh builds it; nothing links it. It is not Apple's SDK and can drift
// from it: it declares only what Sesame uses.
//
// What it models, as the current (Xcode 16 and later) SDKs import it:
// - names, as `NS_SWIFT_NAME` gives them;
// - optionality: `nullable` is `T?`; the unaudited `ASAuthorizationPublicKeyCredentialAssertion`
//   properties are implicitly unwrapped `Data!`;
// - isolation: both controller protocols are `NS_SWIFT_UI_ACTOR`, so `@MainActor`, and the
//   presentation anchor (a `UIWindow` or `NSWindow`) is a main-actor class;
// - Sendable: value types are Sendable; classes are not, except the descriptor (documented as
//   Sendable); a class modelled as non-Sendable is the stricter choice;
// - `NS_TYPED_EXTENSIBLE_ENUM` strings as RawRepresentable structs; `NS_ENUM`s and the error codes
//   as enums that are not frozen (the module is built with library evolution, so a `switch` needs
//   `@unknown default` as it does against the SDK).
// What it does not model: availability (`API_AVAILABLE` / `API_UNAVAILABLE`; Linux ignores Apple
// platforms in `@available` and `#available` anyway), Objective-C `@optional` requirements (the
// delegate's methods are required here, so a misspelt one is an error, where Xcode only warns that
// it "nearly matches"), NSCopying / NSSecureCoding, and behaviour (every body traps).
import Foundation

// MARK: ASFoundation.h

/// The window the stand-in anchor stands for: `UIWindow` (UIKit, Mac Catalyst, visionOS) or
/// `NSWindow` (AppKit), both main-actor classes.
@MainActor
open class ASStandInWindow: NSObject {}

/// `typedef UIWindow *ASPresentationAnchor` / `typedef NSWindow *ASPresentationAnchor`.
public typealias ASPresentationAnchor = ASStandInWindow

// MARK: ASAuthorizationError.h

/// The error domain.
public let ASAuthorizationErrorDomain: String = "com.apple.AuthenticationServices.AuthorizationError"

/// `NS_ERROR_ENUM(ASAuthorizationErrorDomain, ASAuthorizationError)`: a struct wrapping the
/// `NSError`, with a `Code` enum.
public struct ASAuthorizationError: CustomNSError, Hashable, Sendable {
    /// The error codes.
    public enum Code: Int, Sendable, Equatable {
        case unknown = 1000
        case canceled = 1001
        case invalidResponse = 1002
        case notHandled = 1003
        case failed = 1004
        case notInteractive = 1005
        case matchedExcludedCredential = 1006
        case credentialImport = 1007
        case credentialExport = 1008
        case preferSignInWithApple = 1009
        case deviceNotConfiguredForPasskeyCreation = 1010
    }

    /// The error's code.
    public let code: Code

    /// An error with `code`.
    public init(_ code: Code) {
        self.code = code
    }

    public static var errorDomain: String { ASAuthorizationErrorDomain }
    public var errorCode: Int { code.rawValue }

    public static var unknown: Code { .unknown }
    public static var canceled: Code { .canceled }
    public static var invalidResponse: Code { .invalidResponse }
    public static var notHandled: Code { .notHandled }
    public static var failed: Code { .failed }
    public static var notInteractive: Code { .notInteractive }
    public static var matchedExcludedCredential: Code { .matchedExcludedCredential }
}

// MARK: ASAuthorizationPublicKeyCredentialConstants.h

/// `NS_TYPED_EXTENSIBLE_ENUM` over `NSString`.
public struct ASAuthorizationPublicKeyCredentialUserVerificationPreference: Hashable, RawRepresentable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let preferred = Self(rawValue: "preferred")
    public static let required = Self(rawValue: "required")
    public static let discouraged = Self(rawValue: "discouraged")
}

/// `NS_TYPED_EXTENSIBLE_ENUM` over `NSString`.
public struct ASAuthorizationPublicKeyCredentialAttestationKind: Hashable, RawRepresentable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let none = Self(rawValue: "none")
    public static let direct = Self(rawValue: "direct")
    public static let indirect = Self(rawValue: "indirect")
    public static let enterprise = Self(rawValue: "enterprise")
}

/// `NS_ENUM(NSInteger, ASAuthorizationPublicKeyCredentialAttachment)`.
public enum ASAuthorizationPublicKeyCredentialAttachment: Int, Sendable {
    case platform = 0
    case crossPlatform = 1
}

// MARK: ASAuthorizationProvider.h, ASAuthorizationRequest.h, ASAuthorizationCredential.h, ASAuthorization.h

/// `@protocol ASAuthorizationProvider <NSObject>`.
public protocol ASAuthorizationProvider: NSObjectProtocol {}

/// `@protocol ASAuthorizationCredential <NSObject, NSCopying, NSSecureCoding>`.
public protocol ASAuthorizationCredential: NSObjectProtocol {}

/// `@interface ASAuthorizationRequest : NSObject <NSCopying, NSSecureCoding>`.
open class ASAuthorizationRequest: NSObject {
    /// The provider that made the request.
    open var provider: any ASAuthorizationProvider { fatalError("stand-in") }

    @available(*, unavailable)
    public override init() { fatalError("stand-in") }

    init(standIn: Void) { super.init() }
}

/// `@interface ASAuthorization : NSObject`: the result of a successful request.
open class ASAuthorization: NSObject {
    open var provider: any ASAuthorizationProvider { fatalError("stand-in") }
    open var credential: any ASAuthorizationCredential { fatalError("stand-in") }

    @available(*, unavailable)
    public override init() { fatalError("stand-in") }
}

// MARK: ASAuthorizationController.h

/// `NS_SWIFT_UI_ACTOR @protocol ASAuthorizationControllerDelegate <NSObject>` (both methods
/// `@optional` in the SDK; required here, see the note at the top).
@MainActor
public protocol ASAuthorizationControllerDelegate: NSObjectProtocol {
    func authorizationController(
        controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization)
    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error)
}

/// `NS_SWIFT_UI_ACTOR @protocol ASAuthorizationControllerPresentationContextProviding <NSObject>`.
@MainActor
public protocol ASAuthorizationControllerPresentationContextProviding: NSObjectProtocol {
    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor
}

/// `@interface ASAuthorizationController : NSObject` (not annotated, so not isolated and not Sendable).
open class ASAuthorizationController: NSObject {
    /// `NS_OPTIONS(NSUInteger, ASAuthorizationControllerRequestOptions)`,
    /// `NS_SWIFT_NAME(ASAuthorizationController.RequestOptions)`.
    public struct RequestOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let preferImmediatelyAvailableCredentials = RequestOptions(rawValue: 1 << 0)
    }

    open var authorizationRequests: [ASAuthorizationRequest] { fatalError("stand-in") }
    /// `@property (nonatomic, weak, nullable) id <ASAuthorizationControllerDelegate> delegate`.
    open weak var delegate: (any ASAuthorizationControllerDelegate)?
    /// `@property (nonatomic, weak, nullable) id <…PresentationContextProviding> presentationContextProvider`.
    open weak var presentationContextProvider: (any ASAuthorizationControllerPresentationContextProviding)?

    /// `- initWithAuthorizationRequests:`, the designated initializer.
    public init(authorizationRequests: [ASAuthorizationRequest]) { super.init() }

    @available(*, unavailable)
    public override init() { fatalError("stand-in") }

    open func performRequests() { fatalError("stand-in") }
    /// `- performRequestsWithOptions:`, `NS_SWIFT_NAME(performRequests(options:))`.
    open func performRequests(options: ASAuthorizationController.RequestOptions) { fatalError("stand-in") }
    open func cancel() { fatalError("stand-in") }
}

// MARK: ASPublicKeyCredential.h and the ASAuthorizationPublicKeyCredential*.h protocols

/// `@protocol ASPublicKeyCredential <ASAuthorizationCredential>`.
public protocol ASPublicKeyCredential: ASAuthorizationCredential {
    var rawClientDataJSON: Data { get }
    var credentialID: Data { get }
}

/// `@protocol ASAuthorizationPublicKeyCredentialRegistration <ASPublicKeyCredential>`.
public protocol ASAuthorizationPublicKeyCredentialRegistration: ASPublicKeyCredential {
    var rawAttestationObject: Data? { get }
}

/// `@protocol ASAuthorizationPublicKeyCredentialAssertion <ASPublicKeyCredential>`. The header has no
/// nullability audit, so the properties import as implicitly unwrapped optionals.
public protocol ASAuthorizationPublicKeyCredentialAssertion: ASPublicKeyCredential {
    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    var rawAuthenticatorData: Data! { get }
    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    var userID: Data! { get }
    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    var signature: Data! { get }
}

/// `@protocol ASAuthorizationPublicKeyCredentialDescriptor <NSObject, NSSecureCoding, NSCopying>`.
public protocol ASAuthorizationPublicKeyCredentialDescriptor: NSObjectProtocol {
    var credentialID: Data { get set }
}

/// `@protocol ASAuthorizationPublicKeyCredentialRegistrationRequest <NSObject, NSSecureCoding, NSCopying>`.
public protocol ASAuthorizationPublicKeyCredentialRegistrationRequest: NSObjectProtocol {
    var relyingPartyIdentifier: String { get }
    var userID: Data { get set }
    var name: String { get set }
    var displayName: String? { get set }
    var challenge: Data { get set }
    var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference { get set }
    var attestationPreference: ASAuthorizationPublicKeyCredentialAttestationKind { get set }
}

/// `@protocol ASAuthorizationPublicKeyCredentialAssertionRequest <NSObject, NSSecureCoding, NSCopying>`.
public protocol ASAuthorizationPublicKeyCredentialAssertionRequest: NSObjectProtocol {
    var challenge: Data { get set }
    var relyingPartyIdentifier: String { get set }
    var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference { get set }
}

// MARK: ASAuthorizationPlatformPublicKeyCredential*.h

/// `@interface ASAuthorizationPlatformPublicKeyCredentialDescriptor : NSObject
/// <ASAuthorizationPublicKeyCredentialDescriptor>`, documented as Sendable.
open class ASAuthorizationPlatformPublicKeyCredentialDescriptor: NSObject, ASAuthorizationPublicKeyCredentialDescriptor,
    @unchecked Sendable
{
    open var credentialID: Data

    /// `- initWithCredentialID:`, the designated initializer.
    public init(credentialID: Data) {
        self.credentialID = credentialID
        super.init()
    }

    @available(*, unavailable)
    public override init() { fatalError("stand-in") }
}

/// `@interface ASAuthorizationPlatformPublicKeyCredentialProvider : NSObject <ASAuthorizationProvider>`.
open class ASAuthorizationPlatformPublicKeyCredentialProvider: NSObject, ASAuthorizationProvider {
    open var relyingPartyIdentifier: String { fatalError("stand-in") }

    /// `- initWithRelyingPartyIdentifier:`, the designated initializer.
    public init(relyingPartyIdentifier: String) { super.init() }

    @available(*, unavailable)
    public override init() { fatalError("stand-in") }

    /// `NS_SWIFT_NAME(createCredentialRegistrationRequest(challenge:name:userID:))`, nonnull.
    open func createCredentialRegistrationRequest(challenge: Data, name: String, userID: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest
    {
        fatalError("stand-in")
    }

    /// `NS_SWIFT_NAME(createCredentialAssertionRequest(challenge:))`, nonnull.
    open func createCredentialAssertionRequest(challenge: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest
    {
        fatalError("stand-in")
    }
}

/// `@interface ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest : ASAuthorizationRequest
/// <ASAuthorizationPublicKeyCredentialRegistrationRequest>`.
open class ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest: ASAuthorizationRequest,
    ASAuthorizationPublicKeyCredentialRegistrationRequest
{
    open var relyingPartyIdentifier: String { fatalError("stand-in") }
    open var userID: Data
    open var name: String
    open var displayName: String?
    open var challenge: Data
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference
    open var attestationPreference: ASAuthorizationPublicKeyCredentialAttestationKind

    /// The SDK's category conforming to the web-browser registration protocol
    /// (`API_UNAVAILABLE(tvos, watchos, visionos)`): nullable copy array.
    open var excludedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor]?

    init(standInChallenge challenge: Data, name: String, userID: Data) {
        self.userID = userID
        self.name = name
        self.challenge = challenge
        self.userVerificationPreference = .preferred
        self.attestationPreference = .none
        super.init(standIn: ())
    }
}

/// `@interface ASAuthorizationPlatformPublicKeyCredentialAssertionRequest : ASAuthorizationRequest
/// <ASAuthorizationPublicKeyCredentialAssertionRequest>`.
open class ASAuthorizationPlatformPublicKeyCredentialAssertionRequest: ASAuthorizationRequest,
    ASAuthorizationPublicKeyCredentialAssertionRequest
{
    open var challenge: Data
    open var relyingPartyIdentifier: String
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference
    /// `@property (nonatomic, copy) NSArray<ASAuthorizationPlatformPublicKeyCredentialDescriptor *> *allowedCredentials`.
    open var allowedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor]

    init(standInChallenge challenge: Data, relyingPartyIdentifier: String) {
        self.challenge = challenge
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.userVerificationPreference = .preferred
        self.allowedCredentials = []
        super.init(standIn: ())
    }
}

/// `@interface ASAuthorizationPlatformPublicKeyCredentialRegistration : NSObject
/// <ASAuthorizationPublicKeyCredentialRegistration>`.
open class ASAuthorizationPlatformPublicKeyCredentialRegistration: NSObject,
    ASAuthorizationPublicKeyCredentialRegistration
{
    open var rawClientDataJSON: Data { fatalError("stand-in") }
    open var credentialID: Data { fatalError("stand-in") }
    open var rawAttestationObject: Data? { fatalError("stand-in") }
    open var attachment: ASAuthorizationPublicKeyCredentialAttachment { fatalError("stand-in") }

    @available(*, unavailable)
    public override init() { fatalError("stand-in") }
}

/// `@interface ASAuthorizationPlatformPublicKeyCredentialAssertion : NSObject
/// <ASAuthorizationPublicKeyCredentialAssertion>`.
open class ASAuthorizationPlatformPublicKeyCredentialAssertion: NSObject, ASAuthorizationPublicKeyCredentialAssertion {
    open var rawClientDataJSON: Data { fatalError("stand-in") }
    open var credentialID: Data { fatalError("stand-in") }
    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    open var rawAuthenticatorData: Data! { fatalError("stand-in") }
    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    open var userID: Data! { fatalError("stand-in") }
    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    open var signature: Data! { fatalError("stand-in") }
    open var attachment: ASAuthorizationPublicKeyCredentialAttachment { fatalError("stand-in") }

    @available(*, unavailable)
    public override init() { fatalError("stand-in") }
}

// MARK: ASWebAuthenticationSession.h, ASWebAuthenticationSessionCallback.h

/// The error domain of `ASWebAuthenticationSession`.
public let ASWebAuthenticationSessionErrorDomain: String = "com.apple.AuthenticationServices.WebAuthenticationSession"

/// `NS_ERROR_ENUM(ASWebAuthenticationSessionErrorDomain, ASWebAuthenticationSessionError)`.
public struct ASWebAuthenticationSessionError: CustomNSError, Hashable, Sendable {
    public enum Code: Int, Sendable, Equatable {
        case canceledLogin = 1
        case presentationContextNotProvided = 2
        case presentationContextInvalid = 3
    }

    public let code: Code
    public init(_ code: Code) { self.code = code }
    public static var errorDomain: String { ASWebAuthenticationSessionErrorDomain }
    public var errorCode: Int { code.rawValue }
    public static var canceledLogin: Code { .canceledLogin }
}

/// `@protocol ASWebAuthenticationPresentationContextProviding <NSObject>`, `NS_SWIFT_UI_ACTOR`.
@MainActor
public protocol ASWebAuthenticationPresentationContextProviding: NSObjectProtocol {
    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor
}

/// `@interface ASWebAuthenticationSession : NSObject`: not Sendable, used on the main actor.
open class ASWebAuthenticationSession: NSObject {
    /// `ASWebAuthenticationSessionCompletionHandler`.
    public typealias CompletionHandler = @Sendable (URL?, (any Error)?) -> Void

    /// `@interface ASWebAuthenticationSessionCallback : NSObject` (iOS 17.4, macOS 14.4).
    open class Callback: NSObject {
        open class func customScheme(_ customScheme: String) -> Callback { fatalError("stand-in") }
        open class func https(host: String, path: String) -> Callback { fatalError("stand-in") }
    }

    public init(url URL: URL, callbackURLScheme: String?, completionHandler: @escaping CompletionHandler) {
        fatalError("stand-in")
    }

    public init(url URL: URL, callback: Callback, completionHandler: @escaping CompletionHandler) {
        fatalError("stand-in")
    }

    /// `weak`.
    open weak var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)?
    open var prefersEphemeralWebBrowserSession: Bool
    open var canStart: Bool { fatalError("stand-in") }
    open func start() -> Bool { fatalError("stand-in") }
    open func cancel() { fatalError("stand-in") }
}

// MARK: UIKit's UIViewController, as the account modification view controller inherits it

/// The view controller the stand-in modification view controller stands on: `UIViewController`, a
/// main-actor class whose designated initializers are `init(nibName:bundle:)` and the required
/// `init?(coder:)` (so a subclass with stored properties must give them defaults to inherit both).
@MainActor
open class ASStandInViewController: NSObject {
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) { super.init() }
    public required init?(coder: NSCoder) { super.init() }
}

// MARK: ASExtensionErrors.h

/// `NSErrorDomain const ASExtensionErrorDomain`.
public let ASExtensionErrorDomain: String = "ASExtensionErrorDomain"

/// `NS_ERROR_ENUM(ASExtensionErrorDomain, ASExtensionErrorCode)`: a struct wrapping the `NSError`,
/// with a `Code` enum and `init(_:userInfo:)`.
public struct ASExtensionError: CustomNSError, Hashable, Sendable {
    /// The error codes.
    public enum Code: Int, Sendable, Equatable {
        case failed = 0
        case userCanceled = 1
        case userInteractionRequired = 100
        case credentialIdentityNotFound = 101
        case matchedExcludedCredential = 102
    }

    /// The error's code.
    public let code: Code

    /// An error with `code` and `userInfo` (e.g. `ASExtensionLocalizedFailureReasonErrorKey`).
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
    }

    public static var errorDomain: String { ASExtensionErrorDomain }
    public var errorCode: Int { code.rawValue }
    /// The bridged error's user info.
    public var userInfo: [String: Any] { fatalError("stand-in") }

    public static var failed: Code { .failed }
    public static var userCanceled: Code { .userCanceled }
    public static var userInteractionRequired: Code { .userInteractionRequired }
    public static var credentialIdentityNotFound: Code { .credentialIdentityNotFound }
    public static var matchedExcludedCredential: Code { .matchedExcludedCredential }
}

/// `NSErrorUserInfoKey const ASExtensionLocalizedFailureReasonErrorKey` (iOS 14): the text shown
/// when a request fails.
public let ASExtensionLocalizedFailureReasonErrorKey: String = "ASExtensionLocalizedFailureReasonErrorKey"

// MARK: ASCredentialServiceIdentifier.h, ASPasswordCredential.h, ASAuthorizationAppleIDCredential.h

/// `@interface ASCredentialServiceIdentifier : NSObject <NSCopying, NSSecureCoding>`.
open class ASCredentialServiceIdentifier: NSObject {
    /// `NS_ENUM(NSInteger, ASCredentialServiceIdentifierType)`, `NS_SWIFT_NAME(IdentifierType)`.
    public enum IdentifierType: Int, Sendable {
        case domain = 0
        case URL = 1
    }

    /// `- initWithIdentifier:type:`, the designated initializer.
    public init(identifier: String, type: ASCredentialServiceIdentifier.IdentifierType) { super.init() }

    open var identifier: String { fatalError("stand-in") }
    open var type: ASCredentialServiceIdentifier.IdentifierType { fatalError("stand-in") }
}

/// `@interface ASPasswordCredential : NSObject <ASAuthorizationCredential>`.
open class ASPasswordCredential: NSObject, ASAuthorizationCredential {
    /// `- initWithUser:password:`, the designated initializer.
    public init(user: String, password: String) { super.init() }

    open var user: String { fatalError("stand-in") }
    open var password: String { fatalError("stand-in") }
}

/// `@interface ASAuthorizationAppleIDCredential : NSObject <ASAuthorizationCredential>`: the
/// members the upgrade reads (all `nullable`).
open class ASAuthorizationAppleIDCredential: NSObject, ASAuthorizationCredential {
    open var state: String? { fatalError("stand-in") }
    open var authorizationCode: Data? { fatalError("stand-in") }
    open var identityToken: Data? { fatalError("stand-in") }

    @available(*, unavailable)
    public override init() { fatalError("stand-in") }
}

// MARK: ASAccountAuthenticationModificationRequest.h and its two subclasses' headers

/// `@interface ASAccountAuthenticationModificationRequest : NSObject`.
open class ASAccountAuthenticationModificationRequest: NSObject {
    init(standIn: Void) { super.init() }
}

/// `@interface ASAccountAuthenticationModificationUpgradePasswordToStrongPasswordRequest :
/// ASAccountAuthenticationModificationRequest`.
open class ASAccountAuthenticationModificationUpgradePasswordToStrongPasswordRequest:
    ASAccountAuthenticationModificationRequest
{
    /// `- initWithUser:serviceIdentifier:userInfo:` (`userInfo` nullable).
    public init(user: String, serviceIdentifier: ASCredentialServiceIdentifier, userInfo: [AnyHashable: Any]?) {
        super.init(standIn: ())
    }

    open var user: String { fatalError("stand-in") }
    open var serviceIdentifier: ASCredentialServiceIdentifier { fatalError("stand-in") }
    open var userInfo: [AnyHashable: Any]? { fatalError("stand-in") }
}

/// `@interface ASAccountAuthenticationModificationReplacePasswordWithSignInWithAppleRequest :
/// ASAccountAuthenticationModificationRequest`.
open class ASAccountAuthenticationModificationReplacePasswordWithSignInWithAppleRequest:
    ASAccountAuthenticationModificationRequest
{
    /// `- initWithUser:serviceIdentifier:userInfo:` (`userInfo` nullable).
    public init(user: String, serviceIdentifier: ASCredentialServiceIdentifier, userInfo: [AnyHashable: Any]?) {
        super.init(standIn: ())
    }

    open var user: String { fatalError("stand-in") }
    open var serviceIdentifier: ASCredentialServiceIdentifier { fatalError("stand-in") }
    open var userInfo: [AnyHashable: Any]? { fatalError("stand-in") }
}

// MARK: ASAccountAuthenticationModificationController.h

/// `@protocol ASAccountAuthenticationModificationControllerDelegate <NSObject>`: not annotated
/// for an actor, so its methods are nonisolated (both `@optional` in the SDK; required here).
public protocol ASAccountAuthenticationModificationControllerDelegate: NSObjectProtocol {
    func accountAuthenticationModificationController(
        _ controller: ASAccountAuthenticationModificationController,
        didSuccessfullyComplete request: ASAccountAuthenticationModificationRequest, userInfo: [AnyHashable: Any]?)
    func accountAuthenticationModificationController(
        _ controller: ASAccountAuthenticationModificationController,
        didFail request: ASAccountAuthenticationModificationRequest, error: any Error)
}

/// `@protocol ASAccountAuthenticationModificationControllerPresentationContextProviding <NSObject>`:
/// its one method returns a window, so it is main-actor.
public protocol ASAccountAuthenticationModificationControllerPresentationContextProviding: NSObjectProtocol {
    @MainActor
    func presentationAnchor(for controller: ASAccountAuthenticationModificationController) -> ASPresentationAnchor
}

/// `@interface ASAccountAuthenticationModificationController : NSObject` (not isolated, not Sendable).
open class ASAccountAuthenticationModificationController: NSObject {
    /// `weak, nullable`.
    open weak var delegate: (any ASAccountAuthenticationModificationControllerDelegate)?
    /// `weak, nullable`.
    open weak var presentationContextProvider:
        (any ASAccountAuthenticationModificationControllerPresentationContextProviding)?

    public override init() { super.init() }

    /// `- performRequest:`: one at a time; a request made while one is under way fails at once.
    open func perform(_ request: ASAccountAuthenticationModificationRequest) { fatalError("stand-in") }
}

// MARK: ASAccountAuthenticationModificationExtensionContext.h

/// `@interface ASAccountAuthenticationModificationExtensionContext : NSExtensionContext` (not
/// isolated; reached through the view controller's main-actor `extensionContext`).
open class ASAccountAuthenticationModificationExtensionContext: NSObject {
    /// `NS_SWIFT_NAME(getSignInWithAppleUpgradeAuthorization(state:nonce:completionHandler:))`; the
    /// block is not `NS_SWIFT_SENDABLE`, and both of its arguments are nullable.
    open func getSignInWithAppleUpgradeAuthorization(
        state: String?, nonce: String?,
        completionHandler: @escaping (ASAuthorizationAppleIDCredential?, (any Error)?) -> Void
    ) {
        fatalError("stand-in")
    }

    /// `NS_SWIFT_NAME(completeUpgradeToSignInWithApple(userInfo:))`.
    open func completeUpgradeToSignInWithApple(userInfo: [AnyHashable: Any]? = nil) { fatalError("stand-in") }

    /// `NS_SWIFT_NAME(completeChangePasswordRequest(updatedCredential:userInfo:))`.
    open func completeChangePasswordRequest(
        updatedCredential: ASPasswordCredential, userInfo: [AnyHashable: Any]? = nil
    ) {
        fatalError("stand-in")
    }

    /// `- cancelRequestWithError:`.
    open func cancelRequest(withError error: any Error) { fatalError("stand-in") }

    @available(*, unavailable)
    public override init() { fatalError("stand-in") }
}

// MARK: ASAccountAuthenticationModificationViewController.h

/// `@interface ASAccountAuthenticationModificationViewController : UIViewController`, main-actor as
/// every view controller is. The request methods are meant to be overridden (the system calls
/// them); `cancelRequest()` is the system's Cancel, and an override must call super.
@MainActor
open class ASAccountAuthenticationModificationViewController: ASStandInViewController {
    /// `@property (nonatomic, readonly, strong) ASAccountAuthenticationModificationExtensionContext *extensionContext`.
    open var extensionContext: ASAccountAuthenticationModificationExtensionContext { fatalError("stand-in") }

    open func convertAccountToSignInWithAppleWithoutUserInteraction(
        for serviceIdentifier: ASCredentialServiceIdentifier, existingCredential: ASPasswordCredential,
        userInfo: [AnyHashable: Any]? = nil
    ) {}

    open func prepareInterfaceToConvertAccountToSignInWithApple(
        for serviceIdentifier: ASCredentialServiceIdentifier, existingCredential: ASPasswordCredential,
        userInfo: [AnyHashable: Any]? = nil
    ) {}

    open func changePasswordWithoutUserInteraction(
        for serviceIdentifier: ASCredentialServiceIdentifier, existingCredential: ASPasswordCredential,
        newPassword: String, userInfo: [AnyHashable: Any]? = nil
    ) {}

    open func prepareInterfaceToChangePassword(
        for serviceIdentifier: ASCredentialServiceIdentifier, existingCredential: ASPasswordCredential,
        newPassword: String, userInfo: [AnyHashable: Any]? = nil
    ) {}

    open func cancelRequest() {}
}
