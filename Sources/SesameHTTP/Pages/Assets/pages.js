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
        if (autofill) autofill.abort();
        try {
          submitCredential(form, await navigator.credentials.get(request()));
        } catch (error) {
          if (error && error.name !== "AbortError") showError(button.dataset.failed);
        }
      });
    }
    (async () => {
      const available = PublicKeyCredential.isConditionalMediationAvailable
        && await PublicKeyCredential.isConditionalMediationAvailable();
      if (!available) return;
      autofill = new AbortController();
      document.documentElement.dataset.conditionalMediation = "requested";
      try {
        const credential = await navigator.credentials.get({ ...request(autofill.signal), mediation: "conditional" });
        if (credential) submitCredential(form, credential);
      } catch (error) {
        // Aborted for the button, or the user dismissed autofill: nothing to say.
      }
    })();
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
    button.addEventListener("click", async () => {
      const publicKey = {
        challenge: b64.decode(options.challenge), rp: options.rp, timeout: options.timeout,
        user: { id: b64.decode(options.user.id), name: options.user.name, displayName: options.user.displayName },
        pubKeyCredParams: options.pubKeyCredParams, authenticatorSelection: options.authenticatorSelection,
        excludeCredentials: (options.excludeCredentials || []).map((c) => ({ ...c, id: b64.decode(c.id) })),
        attestation: options.attestation || "none",
      };
      try {
        submitCredential(form, await navigator.credentials.create({ publicKey }));
      } catch (error) {
        showError(error && error.name === "InvalidStateError" ? button.dataset.exists : button.dataset.failed);
      }
    });
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

  if (webAuthn()) signals();
  if (page === "login" || page === "password") passkeyLogin();
  if (page === "signup-passkey" || page === "enroll") passkeyCreate();
  if (page === "form-post") formPost();
})();
