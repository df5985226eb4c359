import Foundation
import SesameStore
import Testing

@testable import SesameHTTP

/// The hosted pages' two colour schemes and a tenant's brand colours in each.
@Suite("Hosted pages: light and dark themes")
struct PageThemeTests {
    static let stylesheet = String(decoding: PageAssets.stylesheet, as: UTF8.self)

    /// The dark block of `pages.css`: what follows its `prefers-color-scheme: dark` query.
    static var darkBlock: Substring {
        guard let start = stylesheet.range(of: "@media (prefers-color-scheme: dark) {") else { return "" }
        return stylesheet[start.upperBound...].prefix { $0 != "}" }
    }

    @Test("the stylesheet follows the system's scheme, and the Swift side knows its dark colours")
    func stylesheetHasBothSchemes() {
        #expect(Self.stylesheet.contains("color-scheme: light dark;"))
        #expect(Self.darkBlock.contains("--surface: \(PageAssets.darkSurface);"))
        #expect(Self.darkBlock.contains("--muted: \(PageAssets.darkMuted);"))
    }

    /// Every pair the stylesheet puts together, in both schemes: text 4.5:1 (WCAG 1.4.3), a
    /// field's border 3:1 against the card (WCAG 1.4.11).
    @Test("both palettes meet WCAG AA for text and 3:1 for field borders")
    func palettesContrast() throws {
        func value(_ name: String, in block: Substring) throws -> String {
            let start = try #require(block.range(of: "--\(name): "), "--\(name)")
            return String(block[start.upperBound...].prefix(7))
        }
        let lightBlock = Self.stylesheet[
            ...(Self.stylesheet.range(of: "@media")?.lowerBound ?? Self.stylesheet.endIndex)]
        for block in [lightBlock, Self.darkBlock] {
            let surface = try value("surface", in: block)
            for text in ["text", "muted", "accent", "danger", "success"] {
                #expect(
                    PageAssets.contrast(try value(text, in: block), surface) >= 4.5, "\(text) on \(surface)")
            }
            #expect(PageAssets.contrast(try value("muted", in: block), try value("page", in: block)) >= 4.5)
            #expect(
                PageAssets.contrast(try value("accent-text", in: block), try value("accent", in: block)) >= 4.5)
            #expect(PageAssets.contrast(try value("field-border", in: block), surface) >= 3)
        }
    }

    @Test("a dark brand colour is lightened until it reads on the dark card; a light one is kept")
    func brandColourInTheDark() {
        let navy = PageAssets.readable("#1d3a8a", on: PageAssets.darkSurface)
        #expect(navy != "#1d3a8a")
        #expect(PageAssets.contrast(navy, PageAssets.darkSurface) >= 4.5)
        #expect(PageAssets.readable("#ffcc00", on: PageAssets.darkSurface) == "#ffcc00")
        #expect(PageAssets.readable("#eeeeee", on: "#ffffff") == "#ffffff", "white at most")
        #expect(PageAssets.readable("not a colour", on: PageAssets.darkSurface) == "not a colour")

        let theme = PageAssets.theme(BrandingSettings(primaryColor: "#1d3a8a", pageBackground: "#f5f0e8"))
        #expect(
            theme.contains(
                "@media (prefers-color-scheme: light) { :root { --accent: #1d3a8a; --accent-text: #ffffff; --page: #f5f0e8; } }"
            ))
        #expect(theme.contains("@media (prefers-color-scheme: dark) { :root { --accent: \(navy); --accent-text:"))
        #expect(
            !theme.contains("dark) { :root { --accent: \(navy); --accent-text: #111827; --page:"),
            "a light page gives way")
        #expect(PageAssets.theme(BrandingSettings(logoURL: "https://cdn.example.com/logo.svg")).isEmpty)
    }

    @Test("every page links the favicon, which is served as SVG and cached by its version")
    func favicon() throws {
        let svg = String(decoding: PageAssets.favicon, as: UTF8.self)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("prefers-color-scheme:dark"))
        let head = PageLayout.head(title: "t", language: "en", tenant: nil, nonce: "n").markup
        #expect(head.contains("<link rel=\"icon\" href=\"/u/assets/favicon.svg?v=\(PageAssets.faviconVersion)\""))
    }
}
