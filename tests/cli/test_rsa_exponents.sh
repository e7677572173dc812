#!/usr/bin/env bash
# RSA public exponents (FORMAT.md §10.7): e odd, from 3 to 2^24 - 1, for ssh-rsa recipients (-r, -R, the
# recipient command) and identities (-i) alike, in both formats. Keys outside the rule are refused when read,
# exit 2 with one error naming the rule, never a later OpenSSL failure; keys at its edges work both ways.
# The keys are crafted (ssh-keygen makes only e = 65537): tests/vectors/rsa_exponents/make_keys.py.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

KEYS=$SOURCE_DIR/tests/vectors/rsa_exponents
RULE="pcrypt accepts an odd e from 3 to 16777215 (2^24 - 1), as age does"
head -c 100000 /dev/urandom > plain
"$PCRYPT" keygen -o other.key 2> /dev/null
"$PCRYPT" encrypt -k other.key plain -o other.pcrypt
"$PCRYPT" encrypt --format age -r "$("$PCRYPT" keygen --identity 2> /dev/null | "$PCRYPT" recipient -)" \
  plain -o other.age

check "accepted edges (e = 3, 65537, 2^24 - 1 on 2048- and 4096-bit keys): encrypt to them, decrypt with them"
for key in rsa2048_e3 rsa2048_e65537 rsa2048_e16777215 rsa4096_e16777215; do
  [[ $("$PCRYPT" recipient "$KEYS/$key") == "$(cut -d' ' -f1-2 "$KEYS/$key.pub")" ]] ||
    fail "recipient of $key differs from $key.pub"
  for format in pcrypt age; do
    rm -f enc out
    "$PCRYPT" encrypt --format $format -R "$KEYS/$key.pub" plain -o enc
    "$PCRYPT" decrypt -i "$KEYS/$key" enc -o out
    same out plain
    rm -f enc out
    "$PCRYPT" encrypt --format $format -r "$(cat "$KEYS/$key.pub")" plain -o enc
    "$PCRYPT" decrypt -i "$KEYS/$key" enc -o out
    same out plain
  done
done

check "refused edges (e = 1, even, 2^24 + 1, 65 bits on 4096, e > n, e = n - 2ish): exit 2 when read, naming the rule"
refused() { # KEY WHAT-E-IS CMD...: exit 2, one error naming the key's e and the rule, no output
  local key=$1 found=$2 line errors=0 text
  shift 2
  rm -f out
  expect 2 "$@"
  # lib.sh's expect_one_error (twice) and a grep for OpenSSL, read here by the shell itself: they were five
  # processes for each of the 82 refusals, most of this test's time.
  text=$(< stderr)
  while IFS= read -r line; do [[ $line == 'pcrypt: error: '* ]] && errors=$((errors + 1)); done <<< "$text"
  [[ $errors == 1 ]] || fail "$key: expected exactly one 'pcrypt: error:' line, got $errors"
  [[ $text == *"$found"* ]] || fail "$key: error message does not mention '$found'"
  [[ $text == *"$RULE"* ]] || fail "$key: error message does not mention '$RULE'"
  [[ $text != *OpenSSL* ]] || fail "$key: an OpenSSL failure instead of the rule"
  ! exists out || fail "$key: out exists after the refusal"
}
for pair in "rsa2048_e1:e is 1;" "rsa2048_e65536:e is 65536;" "rsa2048_e16777217:e is 16777217, 25 bits long;" \
  "rsa4096_e65bits:e is 65 bits long;" "rsa2048_e_above_n:e is 2048 bits long;" \
  "rsa2048_e_n_minus:e is 2048 bits long;"; do
  key=${pair%%:*} found=${pair#*:}
  for format in pcrypt age; do
    refused $key "$found" "$PCRYPT" encrypt --format $format -R "$KEYS/$key.pub" plain -o out
    refused $key "$found" "$PCRYPT" encrypt --format $format -r "$(cat "$KEYS/$key.pub")" plain -o out
    refused $key "$found" "$PCRYPT" encrypt --format $format -i "$KEYS/$key" plain -o out
  done
  refused $key "$found" "$PCRYPT" recipient "$KEYS/$key"
  refused $key "$found" "$PCRYPT" decrypt -i "$KEYS/$key" other.pcrypt -o out
  refused $key "$found" "$PCRYPT" decrypt -i "$KEYS/$key" other.age -o out
  refused $key "$found" "$PCRYPT" decrypt -i "$KEYS/$key" -k other.key other.pcrypt -o out
done

if command -v ssh-keygen > /dev/null && command -v openssl > /dev/null; then
  check "RSA keys in PEM (PKCS#1, PKCS#8) are identities (FORMAT.md §10.9), under the same exponent rule"
  for format in PEM PKCS8; do
    ssh-keygen -q -t rsa -b 2048 -m $format -N '' -f pem_$format
    for enc_format in pcrypt age; do
      rm -f enc out
      "$PCRYPT" encrypt --format $enc_format -R pem_$format.pub plain -o enc
      "$PCRYPT" decrypt -i pem_$format enc -o out 2> stderr || fail "$format key, $enc_format file"
      same out plain
    done
  done
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -pkeyopt rsa_keygen_pubexp:16777217 \
    -out big_e_pem 2> /dev/null
  for format in pcrypt age; do
    refused big_e_pem "e is 16777217, 25 bits long;" "$PCRYPT" encrypt --format $format -i big_e_pem plain -o out
  done
  refused big_e_pem "e is 16777217, 25 bits long;" "$PCRYPT" decrypt -i big_e_pem other.pcrypt -o out
  refused big_e_pem "e is 16777217, 25 bits long;" "$PCRYPT" recipient big_e_pem
else
  echo "SKIPPED: the PEM checks need ssh-keygen and openssl"
fi

if command -v age > /dev/null; then
  check "age 1.1.1 draws the same line: it encrypts to exactly the accepted keys, and pcrypt opens its files"
  for key in rsa2048_e3 rsa2048_e65537 rsa2048_e16777215 rsa4096_e16777215; do
    rm -f enc out
    age -R "$KEYS/$key.pub" -o enc plain || fail "age refused $key"
    "$PCRYPT" decrypt -i "$KEYS/$key" enc -o out
    same out plain
  done
  for key in rsa2048_e1 rsa2048_e65536 rsa2048_e16777217 rsa4096_e65bits rsa2048_e_above_n rsa2048_e_n_minus; do
    ! age -R "$KEYS/$key.pub" -o enc plain 2> /dev/null || fail "age accepted $key, which pcrypt refuses"
  done
else
  echo "SKIPPED: the age comparison needs age (apt-get install age)"
fi

echo "all RSA exponent checks passed"
