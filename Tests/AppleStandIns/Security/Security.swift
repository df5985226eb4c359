// A stand-in for the Swift view of Apple's Security framework (and the few CoreFoundation types it
// uses), written by hand from the public headers (SecItem.h, SecBase.h, CFBase.h, MacTypes.h) so that
// Linux can type-check Sources/SesameClient/Apple/KeychainCredentialsStore.swift.
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

// MARK: SecBase.h result codes (anonymous `CF_ENUM(OSStatus)`, imported as read-only globals)

public var errSecSuccess: OSStatus { 0 }
public var errSecDuplicateItem: OSStatus { -25299 }
public var errSecItemNotFound: OSStatus { -25300 }
public var errSecInteractionNotAllowed: OSStatus { -25308 }
public var errSecMissingEntitlement: OSStatus { -34018 }

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
