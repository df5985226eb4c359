#!/usr/bin/env python3
"""Writes Tests/Data/password-hashes/vectors.json: password hashes made by independent
implementations (PyPI bcrypt, argon2-cffi, passlib's pbkdf2, hashlib's SHA-256), for the imported
hash schemes Sesame checks. Run in a venv with `pip install bcrypt argon2-cffi passlib`:

    python scripts/password-hash-vectors.py > Tests/Data/password-hashes/vectors.json
"""
import base64
import hashlib
import json

import argon2
import bcrypt
from passlib.hash import pbkdf2_sha1, pbkdf2_sha256, pbkdf2_sha512

PASSWORDS = ["correct horse battery staple", "pässwörd 🔑", "x", "U*U" * 30]
vectors = []

for password in PASSWORDS:
    data = password.encode()
    # bcrypt reads at most 72 bytes, and PyPI's bcrypt refuses more.
    for prefix in (b"2a", b"2b") if len(data) <= 72 else ():
        made = bcrypt.hashpw(data, bcrypt.gensalt(rounds=4, prefix=prefix)).decode()
        vectors.append({"scheme": "bcrypt", "password": password, "hash": made})
    for kind, type_ in (("argon2id", argon2.Type.ID), ("argon2i", argon2.Type.I), ("argon2d", argon2.Type.D)):
        hasher = argon2.PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1, type=type_)
        vectors.append({"scheme": "argon2", "password": password, "hash": hasher.hash(password)})
    for algorithm in (pbkdf2_sha1, pbkdf2_sha256, pbkdf2_sha512):
        made = algorithm.using(rounds=1000, salt_size=16).hash(password)
        # passlib writes $pbkdf2-sha256$rounds$salt$hash in its "ab64" base64 ('.' for '+');
        # the PHC form Auth0 documents names the rounds i=….
        _, name, rounds, salt, digest = made.split("$")
        if name == "pbkdf2":
            name = "pbkdf2-sha1"
        vectors.append({"scheme": "pbkdf2", "password": password, "hash": f"${name}$i={rounds}${salt}${digest}"})
    for position in ("prefix", "suffix"):
        salt = hashlib.sha256(password.encode() + position.encode()).digest()[:12]
        digest = hashlib.sha256(salt + data if position == "prefix" else data + salt).digest()
        b64 = lambda b: base64.b64encode(b).decode().rstrip("=")
        vectors.append({"scheme": "sha256-salted", "password": password, "hash": f"$sha256-salted${position}${b64(salt)}${b64(digest)}"})

print(json.dumps(vectors, indent=1, ensure_ascii=False))
