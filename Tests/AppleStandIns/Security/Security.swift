// A stand-in for the Swift view of Apple's Security framework (and the few CoreFoundation types it
// uses), written by hand from the public headers (SecItem.h, SecBase.h, SecKey.h, SecAccessControl.h,
// CFBase.h, CFData.h, CFError.h, MacTypes.h) so that Linux can type-check the Keychain stores and the
// Secure Enclave device-key provider in Sources/SesameClient/Apple.
// scripts/apple-standins-check.sh builds it; nothing links it. It is not Apple's SDK: it declares only
// what Sesame uses, and it models names, types and optionality, not availability or behaviour.
//
// Toll-free bridging cannot be modelled on Linux (the compiler has no Objective-C bridging there),
// so `CFString` is `String` and `CFDictionary` is `[AnyHashable: Any]`. Casts such as
// `kSecClass as String` and `query as CFDictionary` therefore always type-check here, even where a
// real SDK would need or reject them.
//
// It imports only the standard library, as the real Security imports CoreFoundation, not Foundation.

// MARK: CoreFoundation and MacTypes

/// `OSStatus` (MacTypes.h: `SInt32`).
public typealias OSStatus = Int32
/// `CFTypeRef` imports as `AnyObject`.
public typealias CFTypeRef = AnyObject
/// `CFStringRef`; toll-free bridged to `String` (see the note at the top).
public typealias CFString = String
/// `CFDictionaryRef`; toll-free bridged to `[AnyHashable: Any]` (see the note at the top).
public typealias CFDictionary = [AnyHashable: Any]
/// `CFIndex` (CFBase.h: `signed long`).
public typealias CFIndex = Int
/// `CFTypeID` (CFBase.h: `unsigned long`).
public typealias CFTypeID = UInt
/// `CFOptionFlags` (CFBase.h: `unsigned long`).
public typealias CFOptionFlags = UInt

/// `CFAllocatorRef`: a CoreFoundation class. Sesame always passes nil (the default allocator).
public final class CFAllocator {}
/// `CFDataRef`: a CoreFoundation class. Its bridging to `Data` cannot be modelled here (see the
/// note at the top), so the adapters go through `CFDataCreate` / `CFDataGetBytePtr`.
public final class CFData {}
/// `CFErrorRef`: a CoreFoundation class; the overlay makes it an `Error`.
public final class CFError: Error {}

/// `CFTypeID CFGetTypeID(CFTypeRef cf)`.
public func CFGetTypeID(_ cf: CFTypeRef!) -> CFTypeID {
    fatalError("stand-in")
}

/// `CFDataRef CFDataCreate(CFAllocatorRef allocator, const UInt8 *bytes, CFIndex length)` (not
/// nullability-audited: implicitly unwrapped).
public func CFDataCreate(_ allocator: CFAllocator!, _ bytes: UnsafePointer<UInt8>!, _ length: CFIndex) -> CFData! {
    fatalError("stand-in")
}

/// `CFIndex CFDataGetLength(CFDataRef theData)`.
public func CFDataGetLength(_ theData: CFData!) -> CFIndex {
    fatalError("stand-in")
}

/// `const UInt8 *CFDataGetBytePtr(CFDataRef theData)`.
public func CFDataGetBytePtr(_ theData: CFData!) -> UnsafePointer<UInt8>! {
    fatalError("stand-in")
}

// MARK: SecBase.h result codes (anonymous `CF_ENUM(OSStatus)`, imported as read-only globals)

public var errSecSuccess: OSStatus { 0 }
public var errSecDuplicateItem: OSStatus { -25299 }
public var errSecItemNotFound: OSStatus { -25300 }
public var errSecInteractionNotAllowed: OSStatus { -25308 }
public var errSecMissingEntitlement: OSStatus { -34018 }
public var errSecUserCanceled: OSStatus { -128 }

/// `CFStringRef SecCopyErrorMessageString(OSStatus status, void * __nullable reserved)`:
/// nullable, returned retained.
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    fatalError("stand-in")
}

// MARK: SecItem.h keys and values (`extern const CFStringRef`, imported as `let … : CFString`)
// The values are placeholders (each constant's own name), not the SDK's.

public let kSecClass: CFString = "kSecClass"
public let kSecClassGenericPassword: CFString = "kSecClassGenericPassword"

public let kSecAttrService: CFString = "kSecAttrService"
public let kSecAttrAccount: CFString = "kSecAttrAccount"
public let kSecAttrAccessGroup: CFString = "kSecAttrAccessGroup"
public let kSecAttrAccessible: CFString = "kSecAttrAccessible"
public let kSecAttrSynchronizable: CFString = "kSecAttrSynchronizable"
public let kSecAttrAccessibleWhenUnlocked: CFString = "kSecAttrAccessibleWhenUnlocked"
public let kSecAttrAccessibleAfterFirstUnlock: CFString = "kSecAttrAccessibleAfterFirstUnlock"
public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "kSecAttrAccessibleWhenUnlockedThisDeviceOnly"
public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString =
    "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly"
public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly"

public let kSecValueData: CFString = "kSecValueData"

public let kSecReturnData: CFString = "kSecReturnData"
public let kSecReturnAttributes: CFString = "kSecReturnAttributes"

public let kSecMatchLimit: CFString = "kSecMatchLimit"
public let kSecMatchLimitOne: CFString = "kSecMatchLimitOne"
public let kSecMatchLimitAll: CFString = "kSecMatchLimitAll"

public let kSecUseDataProtectionKeychain: CFString = "kSecUseDataProtectionKeychain"

public let kSecClassKey: CFString = "kSecClassKey"
public let kSecAttrKeyClass: CFString = "kSecAttrKeyClass"
public let kSecAttrKeyClassPrivate: CFString = "kSecAttrKeyClassPrivate"
public let kSecAttrKeyType: CFString = "kSecAttrKeyType"
public let kSecAttrKeyTypeECSECPrimeRandom: CFString = "kSecAttrKeyTypeECSECPrimeRandom"
public let kSecAttrKeySizeInBits: CFString = "kSecAttrKeySizeInBits"
public let kSecAttrTokenID: CFString = "kSecAttrTokenID"
public let kSecAttrTokenIDSecureEnclave: CFString = "kSecAttrTokenIDSecureEnclave"
public let kSecAttrIsPermanent: CFString = "kSecAttrIsPermanent"
public let kSecAttrApplicationTag: CFString = "kSecAttrApplicationTag"
public let kSecAttrAccessControl: CFString = "kSecAttrAccessControl"
public let kSecPrivateKeyAttrs: CFString = "kSecPrivateKeyAttrs"
public let kSecReturnRef: CFString = "kSecReturnRef"

// MARK: SecItem.h functions

/// `OSStatus SecItemCopyMatching(CFDictionaryRef query, CFTypeRef * __nullable CF_RETURNS_RETAINED result)`.
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    fatalError("stand-in")
}

/// `OSStatus SecItemAdd(CFDictionaryRef attributes, CFTypeRef * __nullable CF_RETURNS_RETAINED result)`.
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    fatalError("stand-in")
}

/// `OSStatus SecItemUpdate(CFDictionaryRef query, CFDictionaryRef attributesToUpdate)`.
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    fatalError("stand-in")
}

/// `OSStatus SecItemDelete(CFDictionaryRef query)`.
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    fatalError("stand-in")
}

// MARK: SecKey.h and SecAccessControl.h

/// `SecKeyRef`: a CoreFoundation class.
public final class SecKey {}
/// `SecAccessControlRef`: a CoreFoundation class.
public final class SecAccessControl {}

/// `CFTypeID SecKeyGetTypeID(void)`.
public func SecKeyGetTypeID() -> CFTypeID {
    fatalError("stand-in")
}

/// `typedef CF_OPTIONS(CFOptionFlags, SecAccessControlCreateFlags)`: an option set.
public struct SecAccessControlCreateFlags: OptionSet, Sendable {
    public let rawValue: CFOptionFlags
    public init(rawValue: CFOptionFlags) { self.rawValue = rawValue }

    public static let userPresence = SecAccessControlCreateFlags(rawValue: 1 << 0)
    public static let biometryAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
    public static let biometryCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    public static let devicePasscode = SecAccessControlCreateFlags(rawValue: 1 << 4)
    public static let privateKeyUsage = SecAccessControlCreateFlags(rawValue: 1 << 30)
}

/// `typedef CFStringRef SecKeyAlgorithm CF_STRING_ENUM`: a struct over the string.
public struct SecKeyAlgorithm: Hashable, RawRepresentable, Sendable {
    public let rawValue: CFString
    public init(rawValue: CFString) { self.rawValue = rawValue }
    public init(_ rawValue: CFString) { self.rawValue = rawValue }

    public static let ecdsaSignatureMessageX962SHA256 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA256")
}

/// `SecAccessControlRef SecAccessControlCreateWithFlags(CFAllocatorRef allocator, CFTypeRef
/// protection, SecAccessControlCreateFlags flags, CFErrorRef *error)` (nullable result).
public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? {
    fatalError("stand-in")
}

/// `SecKeyRef SecKeyCreateRandomKey(CFDictionaryRef parameters, CFErrorRef *error)`.
public func SecKeyCreateRandomKey(_ parameters: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?)
    -> SecKey?
{
    fatalError("stand-in")
}

/// `SecKeyRef SecKeyCopyPublicKey(SecKeyRef key)`.
public func SecKeyCopyPublicKey(_ key: SecKey) -> SecKey? {
    fatalError("stand-in")
}

/// `CFDataRef SecKeyCopyExternalRepresentation(SecKeyRef key, CFErrorRef *error)`.
public func SecKeyCopyExternalRepresentation(_ key: SecKey, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?)
    -> CFData?
{
    fatalError("stand-in")
}

/// `CFDataRef SecKeyCreateSignature(SecKeyRef key, SecKeyAlgorithm algorithm, CFDataRef dataToSign,
/// CFErrorRef *error)`.
public func SecKeyCreateSignature(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ dataToSign: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    fatalError("stand-in")
}
