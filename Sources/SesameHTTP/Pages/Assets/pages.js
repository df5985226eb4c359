// Sesame hosted pages: one script for every page. It only enhances forms that work without it,
// except the passkey steps, which need WebAuthn. Nothing here opens a window or a pop-up, so the
// pages work inside an app's web view.
"use strict";
(() => {
  const page = document.body.dataset.page || "";
  const b64 = {
    decode(text) {
      let s = text.replace(/-/g, "+").replace(/_/g, "/");
      while (s.length % 4) s += "=";
      return Uint8Array.from(atob(s), (c) => c.charCodeAt(0)).buffer;
    },
    encode(buffer) {
      let s = "";
      for (const byte of new Uint8Array(buffer)) s += String.fromCharCode(byte);
      return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    },
  };
  const json = (id) => {
    const element = document.getElementById(id);
    return element ? JSON.parse(element.textContent) : null;
  };
  const webAuthn = () => typeof window.PublicKeyCredential === "function" && !!navigator.credentials;

  // The WebAuthn JSON form of a credential (what the server reads), without relying on toJSON().
  function credentialJSON(credential) {
    const r = credential.response;
    const out = {
      id: credential.id, rawId: b64.encode(credential.rawId), type: credential.type,
      authenticatorAttachment: credential.authenticatorAttachment || undefined,
      clientExtensionResults: credential.getClientExtensionResults(),
      response: { clientDataJSON: b64.encode(r.clientDataJSON) },
    };
    if (r.attestationObject) {
      out.response.attestationObject = b64.encode(r.attestationObject);
      out.response.transports = r.getTransports ? r.getTransports() : [];
    }
    if (r.authenticatorData) {
      out.response.authenticatorData = b64.encode(r.authenticatorData);
      out.response.signature = b64.encode(r.signature);
      if (r.userHandle) out.response.userHandle = b64.encode(r.userHandle);
    }
    return out;
  }

  function showError(message) {
    const box = document.getElementById("client-error");
    if (!box) return;
    box.textContent = message;
    box.hidden = false;
    box.focus();
  }

  // A button whose work is under way: disabled, and marked busy (the stylesheet draws a spinner).
  function busy(button, on) {
    button.disabled = on;
    if (on) button.setAttribute("aria-busy", "true");
    else button.removeAttribute("aria-busy");
  }

  // A form being sent is sent once: its button shows that it is working. The button is disabled
  // only after the browser has read the form, so its own name and value are still sent; a page
  // the browser brings back from its cache is usable again.
  function busyForms() {
    for (const form of document.querySelectorAll("main form")) {
      form.addEventListener("submit", (event) => {
        if (form.dataset.sending) {
          event.preventDefault();
          return;
        }
        form.dataset.sending = "true";
        const button = event.submitter;
        if (button) {
          button.setAttribute("aria-busy", "true");
          setTimeout(() => { button.disabled = true; }, 0);
        }
      });
    }
    window.addEventListener("pageshow", (event) => {
      if (!event.persisted) return;
      for (const form of document.querySelectorAll("main form")) delete form.dataset.sending;
      for (const button of document.querySelectorAll("main button[aria-busy]")) busy(button, false);
    });
  }

  function submitCredential(form, credential) {
    form.elements.credential.value = JSON.stringify(credentialJSON(credential));
    form.submit();
  }

  // Sign-in: the passkey button, and autofill (conditional mediation) where the browser has it.
  function passkeyLogin() {
    const options = json("passkey-options");
    const form = document.getElementById("passkey-form");
    const button = document.getElementById("passkey-button");
    if (!options || !form) return;
    if (!webAuthn()) {
      if (button) button.hidden = true;
      return;
    }
    const request = (signal) => ({
      publicKey: {
        challenge: b64.decode(options.challenge), rpId: options.rpId, timeout: options.timeout,
        userVerification: options.userVerification, allowCredentials: [],
      },
      signal,
    });
    let autofill = null;
    if (button) {
      button.hidden = false;
      button.addEventListener("click", async () => {
        if (button.disabled) return;
        if (autofill) autofill.abort();
        busy(button, true);
        try {
          submitCredential(form, await navigator.credentials.get(request()));
        } catch (error) {
          busy(button, false);
          if (error && error.name === "NotAllowedError") showError(button.dataset.cancelled);
          else if (error && error.name !== "AbortError") showError(button.dataset.failed);
        }
      });
    }
    const startAutofill = async () => {
      const available = PublicKeyCredential.isConditionalMediationAvailable
        && await PublicKeyCredential.isConditionalMediationAvailable();
      if (!available || autofill) return;
      autofill = new AbortController();
      document.documentElement.dataset.conditionalMediation = "requested";
      try {
        const credential = await navigator.credentials.get({ ...request(autofill.signal), mediation: "conditional" });
        if (credential) submitCredential(form, credential);
      } catch (error) {
        // Aborted for the button, or the user dismissed autofill: nothing to say.
      }
    };
    // After the server refused the passkey this page sent, autofill waits for the user: an
    // authenticator that answers at once would send the same refused passkey again and again.
    const field = document.getElementById("username");
    if (json("passkey-refused") && field) {
      document.documentElement.dataset.conditionalMediation = "waiting";
      const act = () => {
        ["input", "pointerdown", "keydown"].forEach((name) => field.removeEventListener(name, act));
        startAutofill();
      };
      ["input", "pointerdown", "keydown"].forEach((name) => field.addEventListener(name, act));
    } else {
      startAutofill();
    }
  }

  // Signup and enrollment: one create() when the user presses the button.
  function passkeyCreate() {
    const options = json("passkey-creation");
    const form = document.getElementById("passkey-form");
    const button = document.getElementById("passkey-button");
    if (!options || !form || !button) return;
    if (!webAuthn()) {
      button.disabled = true;
      showError(button.dataset.unsupported);
      return;
    }
    const creation = (source) => ({
      challenge: b64.decode(source.challenge), rp: source.rp, timeout: source.timeout,
      user: { id: b64.decode(source.user.id), name: source.user.name, displayName: source.user.displayName },
      pubKeyCredParams: source.pubKeyCredParams, authenticatorSelection: source.authenticatorSelection,
      excludeCredentials: (source.excludeCredentials || []).map((c) => ({ ...c, id: b64.decode(c.id) })),
      attestation: source.attestation || "none",
    });
    // The automatic upgrade after a password sign-in: where the browser offers conditional
    // create, its password manager may make the passkey at once, with no dialog. Anything else
    // (no support, the manager declines) leaves the button. The button aborts it first: a
    // browser runs one WebAuthn request at a time, and answers a second with "already pending".
    let conditional = null;
    button.addEventListener("click", async () => {
      if (button.disabled) return;
      busy(button, true);
      document.documentElement.dataset.ceremony = "running";
      try {
        if (conditional) {
          conditional.controller.abort();
          await conditional.done;
          conditional = null;
        }
        submitCredential(form, await navigator.credentials.create({ publicKey: creation(options) }));
      } catch (error) {
        const name = error && error.name;
        showError(name === "InvalidStateError" ? button.dataset.exists
          : name === "NotAllowedError" ? button.dataset.cancelled : button.dataset.failed);
        busy(button, false);
        document.documentElement.dataset.ceremony = "failed";
      }
    });
    const upgrade = json("passkey-conditional");
    const ceremony = json("passkey-conditional-ceremony");
    if (!upgrade || !ceremony || !window.PublicKeyCredential || !PublicKeyCredential.getClientCapabilities) return;
    PublicKeyCredential.getClientCapabilities().then((capabilities) => {
      if (!capabilities || !capabilities.conditionalCreate || button.disabled) return;
      const controller = new AbortController();
      document.documentElement.dataset.conditionalCreate = "requested";
      const done = navigator.credentials
        .create({ publicKey: creation(upgrade), mediation: "conditional", signal: controller.signal })
        .then((credential) => {
          if (controller.signal.aborted || !credential) return;
          form.elements.ceremony.value = ceremony;
          submitCredential(form, credential);
        })
        .catch(() => {
          // Declined, unavailable or aborted by the button: the button stays.
        });
      conditional = { controller, done };
    }).catch(() => {});
  }

  // Signup: Enter in the password field submits the password path, not the form's first button
  // (the passkey's). The server also takes a typed password as the password path.
  function signupEnterKey() {
    const field = document.getElementById("password");
    const button = document.getElementById("password-signup-button");
    if (!field || !button || !field.form || !field.form.requestSubmit) return;
    field.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" || event.isComposing) return;
      event.preventDefault();
      field.form.requestSubmit(button);
    });
  }

  // A new recovery code: copy and download buttons where the browser can do them.
  function recoveryCode() {
    const code = document.getElementById("recovery-code");
    const copy = document.getElementById("copy-recovery-code");
    const download = document.getElementById("download-recovery-code");
    const status = document.getElementById("copy-status");
    if (!code) return;
    const text = code.dataset.code || code.textContent.replace(/\s+/g, "");
    if (copy && navigator.clipboard && window.isSecureContext) {
      copy.hidden = false;
      copy.addEventListener("click", () => {
        navigator.clipboard.writeText(text).then(() => { if (status) status.textContent = copy.dataset.copied; })
          .catch(() => {});
      });
    }
    if (download) {
      download.hidden = false;
      download.addEventListener("click", () => {
        const url = URL.createObjectURL(new Blob([text + "\n"], { type: "text/plain" }));
        const link = document.createElement("a");
        link.href = url;
        link.download = download.dataset.filename || "recovery-code.txt";
        document.body.appendChild(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), 1000);
      });
    }
  }

  // The Signal API (WebAuthn L3): tell the authenticator what the server knows, where it can.
  function signals() {
    const unknown = json("signal-unknown-credential");
    if (unknown && PublicKeyCredential && PublicKeyCredential.signalUnknownCredential) {
      PublicKeyCredential.signalUnknownCredential(unknown).catch(() => {});
      document.documentElement.dataset.signalled = "unknown-credential";
    }
    const accepted = json("signal-accepted-credentials");
    if (accepted && PublicKeyCredential && PublicKeyCredential.signalAllAcceptedCredentials) {
      PublicKeyCredential.signalAllAcceptedCredentials(accepted).catch(() => {});
    }
    const details = json("signal-user-details");
    if (details && PublicKeyCredential && PublicKeyCredential.signalCurrentUserDetails) {
      PublicKeyCredential.signalCurrentUserDetails(details).catch(() => {});
    }
  }

  // form_post: the response form posts itself; the button stays for a browser without scripts.
  function formPost() {
    const form = document.getElementById("response-form");
    if (form) form.submit();
  }

  // The landing page: a demo of the native passkey API (window.sesameDemo, which the browser
  // tests drive), and a sign-in through /authorize with PKCE as a single-page app would do it.
  function landing() {
    const demo = document.getElementById("demo");
    if (!demo) return;
    const clientId = demo.dataset.clientId;
    async function post(path, body, form) {
      const response = await fetch(path, {
        method: "POST",
        headers: { "Content-Type": form ? "application/x-www-form-urlencoded" : "application/json" },
        body: form ? new URLSearchParams(body).toString() : JSON.stringify(body),
      });
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.error + ": " + answer.error_description);
      return answer;
    }
    const grant = "urn:okta:params:oauth:grant-type:webauthn";
    async function signup(email) {
      const challenge = await post("/passkey/register", { client_id: clientId, user_profile: { email } });
      const o = challenge.authn_params_public_key;
      const credential = await navigator.credentials.create({ publicKey: {
        challenge: b64.decode(o.challenge), timeout: o.timeout, rp: o.rp,
        user: { id: b64.decode(o.user.id), name: o.user.name, displayName: o.user.displayName },
        pubKeyCredParams: o.pubKeyCredParams, authenticatorSelection: o.authenticatorSelection } });
      const tokens = await post("/oauth/token", { grant_type: grant, client_id: clientId,
        auth_session: challenge.auth_session, authn_response: credentialJSON(credential),
        scope: "openid profile email offline_access" });
      return { credentialId: credential.id, tokens };
    }
    async function login(allowCredentialId) {
      const challenge = await post("/passkey/challenge", { client_id: clientId });
      const o = challenge.authn_params_public_key;
      const publicKey = { challenge: b64.decode(o.challenge), timeout: o.timeout, rpId: o.rpId,
        userVerification: o.userVerification };
      if (allowCredentialId) publicKey.allowCredentials = [{ type: "public-key", id: b64.decode(allowCredentialId) }];
      const credential = await navigator.credentials.get({ publicKey });
      const tokens = await post("/oauth/token", { grant_type: grant, client_id: clientId,
        auth_session: challenge.auth_session, authn_response: credentialJSON(credential) });
      return { credentialId: credential.id, tokens };
    }
    window.sesameDemo = { signup, login };
    const out = document.getElementById("out");
    const claims = (jwt) => JSON.parse(atob(jwt.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
    function show(promise) {
      promise.then((r) => {
        out.textContent = "Signed in: " + JSON.stringify(claims(r.tokens.id_token), null, 2);
      }).catch((e) => { out.textContent = String(e); });
    }
    document.getElementById("signup").addEventListener("click", () => show(signup(document.getElementById("email").value)));
    document.getElementById("login").addEventListener("click", () => show(login()));

    // OIDC with PKCE: the verifier and state wait in sessionStorage while the browser signs in.
    const random = () => b64.encode(crypto.getRandomValues(new Uint8Array(32)));
    document.getElementById("oidc").addEventListener("click", async () => {
      const verifier = random();
      const state = random();
      const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
      sessionStorage.setItem("sesame-demo", JSON.stringify({ verifier, state }));
      const query = new URLSearchParams({ response_type: "code", client_id: clientId,
        redirect_uri: location.origin + "/", scope: "openid profile email", state, nonce: random(),
        code_challenge: b64.encode(digest), code_challenge_method: "S256" });
      location.assign("/authorize?" + query.toString());
    });
    const returned = new URLSearchParams(location.search);
    const saved = JSON.parse(sessionStorage.getItem("sesame-demo") || "null");
    if (saved && returned.get("state") === saved.state) {
      sessionStorage.removeItem("sesame-demo");
      history.replaceState(null, "", "/");
      if (returned.get("code")) {
        show(post("/oauth/token", { grant_type: "authorization_code", client_id: clientId,
          code: returned.get("code"), redirect_uri: location.origin + "/", code_verifier: saved.verifier }, true)
          .then((tokens) => ({ tokens })));
      } else {
        out.textContent = returned.get("error") + ": " + returned.get("error_description");
      }
    }
  }

  // A show-password button beside every password field: a plain button, so Enter still submits
  // the form's first submit button, and the field is a password field again when the form is sent.
  function passwordToggles() {
    const show = document.body.dataset.showPassword;
    const hide = document.body.dataset.hidePassword;
    if (!show || !hide) return;
    for (const input of document.querySelectorAll("input[type=password]")) {
      const label = input.labels && input.labels[0] ? " " + input.labels[0].textContent.trim() : "";
      const button = document.createElement("button");
      button.type = "button";
      button.className = "reveal";
      button.setAttribute("aria-pressed", "false");
      const render = (shown) => {
        button.textContent = shown ? hide : show;
        button.setAttribute("aria-label", (shown ? hide : show) + label);
        button.setAttribute("aria-pressed", String(shown));
      };
      render(false);
      button.addEventListener("click", () => {
        const shown = input.type === "password";
        input.type = shown ? "text" : "password";
        render(shown);
        input.focus();
      });
      if (input.form) input.form.addEventListener("submit", () => { input.type = "password"; render(false); });
      const wrap = document.createElement("div");
      wrap.className = "secret";
      input.parentNode.insertBefore(wrap, input);
      wrap.append(input, button);
    }
  }

  // The password rules under a new-password field tick as the user types. The rules are the
  // server's (data-rules, from the connection's rules string), and the server checks them again.
  const specialRanges = [[0x20, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]];
  function inClass(name, c) {
    switch (name) {
      case "upper": return c >= 0x41 && c <= 0x5a;
      case "lower": return c >= 0x61 && c <= 0x7a;
      case "digit": return c >= 0x30 && c <= 0x39;
      case "special": return specialRanges.some(([low, high]) => c >= low && c <= high);
      case "ascii-printable": return c >= 0x20 && c <= 0x7e;
      case "unicode": return true;
      default: return c <= 0x7e && name.slice(1, -1).includes(String.fromCodePoint(c));
    }
  }
  function longestRepeat(cs) {
    let best = 0, run = 0;
    cs.forEach((c, i) => { run = i > 0 && cs[i - 1] === c ? run + 1 : 1; best = Math.max(best, run); });
    return best;
  }
  function longestSequence(cs) {
    const kind = (c) => (c >= 0x61 && c <= 0x7a ? 0 : c >= 0x41 && c <= 0x5a ? 1 : c >= 0x30 && c <= 0x39 ? 2 : -1);
    let best = cs.length ? 1 : 0, run = 1, step = 0;
    for (let i = 1; i < cs.length; i++) {
      const difference = cs[i] - cs[i - 1];
      if (kind(cs[i]) >= 0 && kind(cs[i]) === kind(cs[i - 1]) && (difference === 1 || difference === -1)) {
        run = difference === step ? run + 1 : 2;
        step = difference;
      } else {
        run = 1;
        step = 0;
      }
      best = Math.max(best, run);
    }
    return best;
  }
  function meets(rule, cs) {
    if ("min" in rule) return cs.length >= rule.min;
    if ("max" in rule) return cs.length <= rule.max;
    if (rule.required) return cs.some((c) => rule.required.some((name) => inClass(name, c)));
    if (rule.allowed) return cs.every((c) => rule.allowed.some((name) => inClass(name, c)));
    if ("repeating" in rule) return longestRepeat(cs) <= rule.repeating;
    if ("sequential" in rule) return longestSequence(cs) <= rule.sequential;
    return false;
  }
  function passwordChecklists() {
    for (const box of document.querySelectorAll(".password-rules[data-rules]")) {
      const input = document.querySelector(`input[aria-describedby="${box.id}"]`);
      const items = box.querySelectorAll("li");
      let rules;
      try { rules = JSON.parse(box.dataset.rules); } catch { continue; }
      if (!input || !Array.isArray(rules) || items.length !== rules.length) continue;
      const update = () => {
        const cs = Array.from(input.value, (c) => c.codePointAt(0));
        rules.forEach((rule, i) => { items[i].dataset.met = String(cs.length > 0 && meets(rule, cs)); });
      };
      input.addEventListener("input", update);
      update();
    }
  }

  passwordToggles();
  passwordChecklists();
  busyForms();
  if (webAuthn()) signals();
  if (page === "landing") landing();
  if (page === "login" || page === "password") passkeyLogin();
  if (page === "signup-passkey" || page === "enroll") passkeyCreate();
  if (page === "form-post") formPost();
  if (page === "save-recovery-code") recoveryCode();
  if (page === "signup") signupEnterKey();
})();
