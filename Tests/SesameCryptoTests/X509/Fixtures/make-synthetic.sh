#!/bin/sh
# Regenerates the synthetic-*.pem fixtures (a test CA and leaves whose extensions the real
# attestation certificates do not exercise). Keys are throwaway and not kept.
set -eu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
aaguid=00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:ff
cat > "$work/ext.cnf" <<CNF
[critical_aaguid]
basicConstraints = critical,CA:FALSE
1.3.6.1.4.1.45724.1.1.4 = critical,DER:04:10:$aaguid
[critical_unknown]
basicConstraints = critical,CA:FALSE
1.2.3.4.5 = critical,DER:05:00
[short_aaguid]
basicConstraints = critical,CA:FALSE
1.3.6.1.4.1.45724.1.1.4 = DER:04:0f:00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee
CNF
openssl ecparam -name prime256v1 -genkey -noout -out "$work/ca.key"
openssl req -x509 -new -key "$work/ca.key" -subj "/CN=Sesame Test Attestation CA" -days 7300 \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign" -out synthetic-ca.pem
openssl ecparam -name prime256v1 -genkey -noout -out "$work/leaf.key"
openssl req -new -key "$work/leaf.key" -subj "/CN=Sesame Test Leaf" -out "$work/leaf.csr"
serial=2
for ext in critical_aaguid critical_unknown short_aaguid; do
    name=$(echo "$ext" | tr _ -)
    openssl x509 -req -in "$work/leaf.csr" -CA synthetic-ca.pem -CAkey "$work/ca.key" -set_serial $serial \
        -days 3650 -extfile "$work/ext.cnf" -extensions "$ext" -out "synthetic-leaf-$name.pem"
    serial=$((serial + 1))
done
