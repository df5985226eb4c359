// A stand-in for the Swift view of Apple's WebKit framework, written by hand from its public
// headers (WKWebView.h, WKNavigationDelegate.h, WKNavigationAction.h, WKNavigation.h) and Apple's
// Swift documentation, so that Linux can type-check Sources/SesameClient/Apple/WebViewAuthProvider.swift.
// scripts/apple-standins-check.sh builds it; nothing links it. It declares only what Sesame uses:
// the web view is a main-actor class, the delegate a main-actor protocol (`NS_SWIFT_UI_ACTOR`),
// and the policy enum is not frozen. Every body traps.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `@interface WKNavigation : NSObject`.
@MainActor
open class WKNavigation: NSObject {}

/// `@interface WKNavigationAction : NSObject`.
@MainActor
open class WKNavigationAction: NSObject {
    open var request: URLRequest { fatalError("stand-in") }
}

/// `NS_ENUM(NSInteger, WKNavigationActionPolicy)`.
public enum WKNavigationActionPolicy: Int, Sendable {
    case cancel = 0
    case allow = 1
    case download = 2
}

/// `@protocol WKNavigationDelegate <NSObject>`: the methods Sesame implements (optional in the SDK).
@MainActor
public protocol WKNavigationDelegate: NSObjectProtocol {
    func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction) async
        -> WKNavigationActionPolicy
    func webView(
        _ webView: WKWebView, didFailProvisionalNavigation navigation: WKNavigation!, withError error: any Error)
}

/// `@interface WKWebView : UIView` / `NSView`.
@MainActor
open class WKWebView: NSObject {
    /// `weak`.
    open weak var navigationDelegate: (any WKNavigationDelegate)?
    @discardableResult open func load(_ request: URLRequest) -> WKNavigation? { fatalError("stand-in") }
    open func stopLoading() { fatalError("stand-in") }
}
