import Foundation
import SesameService
import SesameStore

/// The admin pages: the setup of the first admin, the overview, an application's settings, and
/// the users (`AdminPages+Users.swift`).
enum AdminPages {
    static func setup(context: HostedContext, identifier: String) -> HostedPage {
        let locale = context.locale
        let body: HTML = """
            <h1>\(Catalog.text(.adminSetupTitle, locale))</h1>
            <p class="lead">\(Catalog.text(.adminSetupLead, locale, identifier, context.tenant.name))</p>
            <form method="post" action="/admin/setup">
            \(PageLayout.hiddenFields(context, transaction: nil))
            <button type="submit">\(Catalog.text(.adminSetupButton, locale))</button>
            </form>
            """
        return HostedPage(name: "admin-setup", title: .adminSetupTitle, body: body)
    }

    /// What the overview shows.
    struct Overview {
        var userTotal: Int
        /// The newest users, with how many passkeys each has and whether they have a password.
        var users: [(user: ManagedUser, passkeys: Int, password: Bool)]
        var clients: [ManagedClient]
        var connections: [ManagedConnection]
    }

    /// `/admin` for a signed-in user who is not one of the tenant's admins: who is signed in, and
    /// the ways on (another account, sign out, their own account page).
    static func notAdmin(context: HostedContext, identifier: String) -> HostedPage {
        let locale = context.locale
        let body: HTML = """
            <h1>\(Catalog.text(.adminOnlyTitle, locale))</h1>
            <p class="lead">\(Catalog.text(.adminNotAdmin, locale))</p>
            <p class="identity"><span>\(Catalog.text(.signedInAs, locale, identifier))</span></p>
            \(AccountPages.action(context, "/admin/switch-account", Catalog.text(.useAnotherAccount, locale), style: nil))
            \(AccountPages.action(context, "/account/logout", Catalog.text(.signOutButton, locale)))
            <div class="links"><p><a href="/account">\(Catalog.text(.errorAccountLink, locale))</a></p></div>
            """
        return HostedPage(
            name: "not-admin", title: .adminOnlyTitle, body: body, status: 403, languageBase: "/admin")
    }

    static func overview(context: HostedContext, overview: Overview) -> HostedPage {
        let locale = context.locale
        var body: HTML = """
            <h1>\(Catalog.text(.adminTitle, locale))</h1>
            <p class="lead">\(context.tenant.name)</p>
            <section aria-labelledby="clients-heading"><h2 id="clients-heading">\
            \(Catalog.text(.adminClients, locale)) (\(overview.clients.count))</h2>
            <div class=\"table-scroll\"><table><thead><tr><th>\(Catalog.text(.adminClientName, locale))</th>\
            <th>\(Catalog.text(.adminClientType, locale))</th><th>client_id</th></tr></thead><tbody>
            """
        for client in overview.clients {
            let href = "/admin/clients/" + PathSegment.encode(client.clientID)
            body +=
                "<tr><td><a href=\"\(href)\">\(client.name)</a></td>"
                + "<td>\(client.appType.rawValue)</td><td><code>\(client.clientID)</code></td></tr>"
        }
        body += """
            </tbody></table></div>
            <form method="post" action="/admin/clients">
            \(PageLayout.hiddenFields(context, transaction: nil))
            <h3>\(Catalog.text(.adminNewClient, locale))</h3>
            <label for="new-name">\(Catalog.text(.adminClientName, locale))</label>
            <input id="new-name" name="name" type="text" maxlength="255" required>
            <label for="new-type">\(Catalog.text(.adminClientType, locale))</label>
            <select id="new-type" name="app_type">
            <option value="regular_web">regular_web</option><option value="spa">spa</option>
            <option value="native">native</option></select>
            <button type="submit" class="secondary">\(Catalog.text(.adminCreateButton, locale))</button>
            </form></section>
            <section aria-labelledby="connections-heading"><h2 id="connections-heading">\
            \(Catalog.text(.adminConnections, locale)) (\(overview.connections.count))</h2><ul>
            """
        for connection in overview.connections { body += "<li>\(connection.name)</li>" }
        body += """
            </ul></section>
            <section aria-labelledby="users-heading"><h2 id="users-heading">\
            \(Catalog.text(.adminUsers, locale)) (\(overview.userTotal))</h2>
            <div class=\"table-scroll\"><table><thead><tr><th>\(Catalog.text(.emailLabel, locale))</th>\
            <th>\(Catalog.text(.adminPasskeyCount, locale))</th><th>\(Catalog.text(.adminHasPassword, locale))</th>\
            </tr></thead><tbody>
            """
        for (user, passkeys, password) in overview.users {
            body +=
                "<tr><td><a href=\"\(userPath(user.userID))\">\(label(user))</a></td>"
                + "<td>\(passkeys)</td><td>\(password ? "✓" : "—")</td></tr>"
        }
        body +=
            "</tbody></table></div><p><a href=\"/admin/users\">\(Catalog.text(.adminAllUsers, locale))</a></p></section>"
        body += "<p><a href=\"/admin/adoption\">\(Catalog.text(.adoptionTitle, locale))</a></p>"
        return HostedPage(name: "admin", title: .adminTitle, body: body, languageBase: "/admin")
    }

    static func lines(_ values: [String]) -> String { values.joined(separator: "\n") }

    /// `/admin/adoption`: the passkey share of device authentications as a server-drawn SVG chart
    /// (no script, no chart library), the days in a table beneath, and the CSV of the same query.
    static func adoption(context: HostedContext, report: AdoptionReport, query: AdoptionQuery) -> HostedPage {
        let locale = context.locale
        let first = report.days.first?.date ?? ""
        let last = report.days.last?.date ?? ""
        var parameters: [(String, String)] = [("from", first), ("to", last)]
        if let client = query.clientID { parameters.append(("client_id", client)) }
        if let connection = query.connection { parameters.append(("connection", connection)) }
        let csv = "/admin/adoption.csv?" + parameters.map { "\($0)=\(PathSegment.encode($1))" }.joined(separator: "&")
        let users = report.users
        var body: HTML = """
            <h1>\(Catalog.text(.adoptionTitle, locale))</h1>
            <p class="lead">\(Catalog.text(.adoptionLead, locale))</p>
            <form method="get" action="/admin/adoption" class="inline">
            <label for="from">\(Catalog.text(.adoptionFrom, locale))</label>
            <input id="from" name="from" type="date" value="\(first)">
            <label for="to">\(Catalog.text(.adoptionTo, locale))</label>
            <input id="to" name="to" type="date" value="\(last)">
            <button type="submit" class="secondary">\(Catalog.text(.adoptionShow, locale))</button>
            </form>
            \(chart(report, label: Catalog.text(.adoptionChartLabel, locale, first, last)))
            <p>\(Catalog.text(.adoptionUsers, locale, String(users.total), String(users.withPasskey), String(users.withDeviceKeyOnly), String(users.passwordOnly)))</p>
            <p><a href="\(csv)" download>\(Catalog.text(.adoptionDownload, locale))</a></p>
            <div class=\"table-scroll\"><table><thead><tr><th>\(Catalog.text(.adoptionDate, locale))</th>\
            <th>\(Catalog.text(.adoptionTotal, locale))</th><th>\(Catalog.text(.adoptionPasskey, locale))</th>\
            <th>\(Catalog.text(.adoptionDeviceKey, locale))</th><th>\(Catalog.text(.adoptionPassword, locale))</th>\
            <th>\(Catalog.text(.adoptionApple, locale))</th><th>\(Catalog.text(.adoptionRefresh, locale))</th>\
            <th>\(Catalog.text(.adoptionShare, locale))</th></tr></thead><tbody>
            """
        for day in report.days.reversed() {
            let methods = day.byMethod
            let share = day.deviceAuthPasskeyShare.map { String(format: "%.1f%%", $0 * 100) } ?? "—"
            body +=
                "<tr><td>\(day.date)</td><td>\(day.total)</td><td>\(methods.passkey)</td><td>\(methods.deviceKey)</td>"
                + "<td>\(methods.password)</td><td>\(methods.apple)</td><td>\(methods.refresh)</td><td>\(share)</td></tr>"
        }
        body += "</tbody></table></div>"
        return HostedPage(name: "admin", title: .adoptionTitle, body: body, languageBase: "/admin/adoption")
    }

    /// The share as a line over the days (0–100 %), with gridlines at 0, 25, 50, 75 and 100 % and
    /// the first and last dates; a day without device authentications breaks the line.
    static func chart(_ report: AdoptionReport, label: HTML) -> HTML {
        let width = 720.0
        let height = 240.0
        let left = 44.0
        let right = 12.0
        let top = 12.0
        let bottom = 28.0
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        let count = max(1, report.days.count - 1)
        func x(_ index: Int) -> String { String(format: "%.1f", left + plotWidth * Double(index) / Double(count)) }
        func y(_ share: Double) -> String { String(format: "%.1f", top + plotHeight * (1 - share)) }
        var svg: HTML = """
            <svg class="chart" role="img" aria-label="\(label)" viewBox="0 0 \(Int(width)) \(Int(height))" \
            xmlns="http://www.w3.org/2000/svg"><title>\(label)</title>
            """
        for step in 0...4 {
            let share = Double(step) / 4
            svg +=
                "<line x1=\"\(Int(left))\" x2=\"\(Int(width - right))\" y1=\"\(y(share))\" y2=\"\(y(share))\" "
                + "stroke=\"#d0d4dc\" stroke-width=\"1\"/>"
                + "<text x=\"\(Int(left) - 6)\" y=\"\(y(share))\" text-anchor=\"end\" dominant-baseline=\"middle\" "
                + "font-size=\"11\" fill=\"#5b6472\">\(step * 25)%</text>"
        }
        // One polyline per run of days that have a share.
        var runs: [[String]] = [[]]
        for (index, day) in report.days.enumerated() {
            if let share = day.deviceAuthPasskeyShare {
                runs[runs.count - 1].append("\(x(index)),\(y(share))")
            } else if !(runs.last?.isEmpty ?? true) {
                runs.append([])
            }
        }
        for run in runs where !run.isEmpty {
            if run.count == 1, let point = run.first {
                let parts = point.split(separator: ",")
                svg += "<circle cx=\"\(String(parts[0]))\" cy=\"\(String(parts[1]))\" r=\"2.5\" fill=\"#2f6fdf\"/>"
            } else {
                svg +=
                    "<polyline points=\"\(run.joined(separator: " "))\" fill=\"none\" stroke=\"#2f6fdf\" "
                    + "stroke-width=\"2\" stroke-linejoin=\"round\"/>"
            }
        }
        if let first = report.days.first, let last = report.days.last {
            let baseline = Int(height - 8)
            svg +=
                "<text x=\"\(Int(left))\" y=\"\(baseline)\" font-size=\"11\" fill=\"#5b6472\">\(first.date)</text>"
                + "<text x=\"\(Int(width - right))\" y=\"\(baseline)\" text-anchor=\"end\" font-size=\"11\" "
                + "fill=\"#5b6472\">\(last.date)</text>"
        }
        return svg + "</svg>"
    }

    static func client(
        context: HostedContext, client: ManagedClient, notice: Bool = false, error: (any Error)? = nil,
        status: Int = 200
    ) -> HostedPage {
        let locale = context.locale
        let action = "/admin/clients/" + PathSegment.encode(client.clientID)
        var grants: HTML = ""
        for (index, grant) in OAuthGrantType.allCases.enumerated() {
            let id = "grant-\(index)"
            grants +=
                "<div><input type=\"checkbox\" id=\"\(id)\" name=\"\(id)\" value=\"\(grant.rawValue)\""
                + (client.grantTypes.contains(grant) ? " checked" : "")
                + "> <label for=\"\(id)\" class=\"inline\">\(grant.rawValue)</label></div>"
        }
        var body: HTML =
            "<h1>\(client.name)</h1><p class=\"lead\"><code>\(client.clientID)</code> · "
            + "\(client.appType.rawValue)</p>"
        if let secret = client.clientSecret {
            body += "<p class=\"notice\">\(Catalog.text(.adminSecretOnce, locale, secret))</p>"
        }
        if notice { body += "<p class=\"notice\" role=\"status\">\(Catalog.text(.adminSaved, locale))</p>" }
        body += PageLayout.errorBox(error.map { Catalog.error($0, locale) })
        body += """
            <form method="post" action="\(action)">
            \(PageLayout.hiddenFields(context, transaction: nil))
            <label for="name">\(Catalog.text(.adminClientName, locale))</label>
            <input id="name" name="name" type="text" maxlength="255" required value="\(client.name)">
            <label for="callbacks">\(Catalog.text(.adminCallbacks, locale))</label>
            <textarea id="callbacks" name="callbacks" rows="3" aria-describedby="one-per-line">\(lines(client.callbacks))</textarea>
            <p class="hint" id="one-per-line">\(Catalog.text(.adminOnePerLine, locale))</p>
            <label for="logout">\(Catalog.text(.adminLogoutURLs, locale))</label>
            <textarea id="logout" name="allowed_logout_urls" rows="2">\(lines(client.allowedLogoutURLs))</textarea>
            <label for="origins">\(Catalog.text(.adminOrigins, locale))</label>
            <textarea id="origins" name="allowed_origins" rows="2">\(lines(client.allowedOrigins))</textarea>
            <fieldset><legend>\(Catalog.text(.adminGrantTypes, locale))</legend>\(grants)</fieldset>
            <fieldset><legend>\(Catalog.text(.adminIOS, locale))</legend>
            <label for="team">\(Catalog.text(.adminTeamID, locale))</label>
            <input id="team" name="ios_team_id" type="text" maxlength="10" value="\(client.mobile?.ios?.teamID ?? "")">
            <label for="bundle">\(Catalog.text(.adminBundleID, locale))</label>
            <input id="bundle" name="ios_bundle_id" type="text" maxlength="155" \
            value="\(client.mobile?.ios?.appBundleIdentifier ?? "")">
            </fieldset>
            <fieldset><legend>\(Catalog.text(.adminAndroid, locale))</legend>
            <label for="package">\(Catalog.text(.adminPackage, locale))</label>
            <input id="package" name="android_package" type="text" maxlength="255" \
            value="\(client.mobile?.android?.appPackageName ?? "")">
            <label for="fingerprints">\(Catalog.text(.adminFingerprints, locale))</label>
            <textarea id="fingerprints" name="android_fingerprints" rows="2">\
            \(lines(client.mobile?.android?.sha256CertFingerprints ?? []))</textarea>
            </fieldset>
            <button type="submit">\(Catalog.text(.adminSaveButton, locale))</button>
            </form>
            <div class="links"><p><a href="/admin">\(Catalog.text(.adminBack, locale))</a></p></div>
            """
        return HostedPage(name: "admin-client", title: .adminClients, body: body, status: status)
    }
}
